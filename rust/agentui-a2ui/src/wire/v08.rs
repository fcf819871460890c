//! v0.8 adapter: `beginRendering`, `surfaceUpdate`, `dataModelUpdate`, `deleteSurface` and
//! `userAction`, mapped onto the v0.9 types the engine uses.
//!
//! OWNER: helper "v08". Bodies are to be written.
