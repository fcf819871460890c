//! AG-UI 1.1 client core: event types, SSE decoding, the stream verifier and the conversation
//! reducer. Rendering and FFI live elsewhere.
