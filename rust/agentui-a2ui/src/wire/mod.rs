//! Wire types: the v0.9 messages (server to client and client to server) and the v0.8 adapter
//! that maps v0.8 messages onto the same types.

pub mod v08;
pub mod v09;
