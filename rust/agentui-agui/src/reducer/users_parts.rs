//! What a messages snapshot may not take away: the media the user sent.
//!
//! The user's message is the app's own record. An agent echoing it in `MESSAGES_SNAPSHOT` may
//! have flattened it to text, dropped a part it does not forward, or written a part in a shape
//! this client cannot read (stripped on the way in); adopting that copy would remove the
//! user's attachment from the chat and from every later request. So a held user message keeps
//! its own media parts: whole when the snapshot's copy lacks any of them, part by part (the
//! app's id and metadata, such as the file name, and a store's reference to the bytes) when
//! the snapshot repeats them.

use crate::message::{ContentPart, MediaPart, Message, MessageContent, PartSource, Role};

/// What to adopt for a user message instead of the snapshot's copy `incoming`, given the copy
/// this client holds. `None`: the snapshot's copy as it is.
pub(super) enum Kept {
    /// The snapshot lost some of the user's media: the app's content, and the kinds it lacked.
    Whole(MessageContent, Vec<&'static str>),
    /// The snapshot repeats every medium: its content, with the app's own media parts.
    PartByPart(MessageContent),
}

pub(super) fn keep_users_parts(held: &Message, incoming: &Message) -> Option<Kept> {
    if held.role != Role::User || incoming.role != Role::User {
        return None;
    }
    let Some(MessageContent::Parts(held_parts)) = &held.content else { return None };
    if !held_parts.iter().any(|p| media(p).is_some()) || held.content == incoming.content {
        return None;
    }
    let incoming_parts = match &incoming.content {
        Some(MessageContent::Parts(parts)) => parts.as_slice(),
        _ => &[],
    };
    // One to one, in order: two photos the user sent are not both found in one echoed photo.
    let mut echo_of: Vec<Option<&ContentPart>> = vec![None; incoming_parts.len()];
    let mut missing = Vec::new();
    for h in held_parts.iter().filter(|p| media(p).is_some()) {
        let found = incoming_parts.iter().enumerate().find(|(i, p)| echo_of[*i].is_none() && same_medium(h, p));
        match found {
            Some((i, _)) => echo_of[i] = Some(h),
            None => missing.push(h.kind()),
        }
    }
    if !missing.is_empty() {
        return Some(Kept::Whole(held.content.clone()?, missing));
    }
    let merged: Vec<ContentPart> =
        incoming_parts.iter().zip(&echo_of).map(|(p, h)| h.map_or_else(|| p.clone(), Clone::clone)).collect();
    let merged = MessageContent::Parts(merged);
    (incoming.content.as_ref() != Some(&merged)).then_some(Kept::PartByPart(merged))
}

fn media(part: &ContentPart) -> Option<&MediaPart> {
    match part {
        ContentPart::Text(_) => None,
        ContentPart::Image(m) | ContentPart::Audio(m) | ContentPart::Video(m) | ContentPart::Document(m) => Some(m),
    }
}

/// `echo` is the same medium as the user's `held` part: the same kind from the same source (its
/// bytes, URL or file handle). A held data part with no bytes in the conversation (a store
/// keeps them in a file and reads them back for each request) is matched by kind and MIME type.
fn same_medium(held: &ContentPart, echo: &ContentPart) -> bool {
    let (Some(h), Some(e)) = (media(held), media(echo)) else { return false };
    if held.kind() != echo.kind() {
        return false;
    }
    match (&h.source, &e.source) {
        (PartSource::Data { value, mime_type }, PartSource::Data { mime_type: echoed, .. }) if value.is_empty() => {
            mime_type == echoed
        }
        (held_source, echoed_source) => held_source == echoed_source,
    }
}
