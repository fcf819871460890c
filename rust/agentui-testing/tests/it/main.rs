//! One test binary (one link) for the kit: the scripted agent through the real client, the
//! script's load errors, and recordings.

mod recording;
mod script_errors;
mod scripted_agent;
