//! What a messages snapshot may not take away: the media the user sent.
//!
//! The user's message is the app's own record. An agent echoing it in `MESSAGES_SNAPSHOT` may
//! have flattened it to text, dropped a part it does not forward, or written a part in a shape
//! this client cannot read (stripped on the way in); adopting that copy would remove the
//! user's attachment from the chat and from every later request. So a held user message keeps
//! its own media parts: whole when the snapshot's copy lacks any of them, part by part (the
//! app's id and metadata, such as the file name) when the snapshot repeats them.

use crate::message::{ContentPart, MediaPart, Message, MessageContent, Role};

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
    let held_media: Vec<&ContentPart> = held_parts.iter().filter(|p| media(p).is_some()).collect();
    if held_media.is_empty() || held.content == incoming.content {
        return None;
    }
    let incoming_parts = match &incoming.content {
        Some(MessageContent::Parts(parts)) => parts.as_slice(),
        _ => &[],
    };
    let missing: Vec<&'static str> =
        held_media.iter().filter(|h| !incoming_parts.iter().any(|p| same_medium(h, p))).map(|h| h.kind()).collect();
    if !missing.is_empty() {
        return Some(Kept::Whole(held.content.clone()?, missing));
    }
    let merged: Vec<ContentPart> = incoming_parts
        .iter()
        .map(|p| held_media.iter().find(|h| same_medium(h, p)).map_or_else(|| p.clone(), |h| (*h).clone()))
        .collect();
    let merged = MessageContent::Parts(merged);
    (incoming.content.as_ref() != Some(&merged)).then_some(Kept::PartByPart(merged))
}

fn media(part: &ContentPart) -> Option<&MediaPart> {
    match part {
        ContentPart::Text(_) => None,
        ContentPart::Image(m) | ContentPart::Audio(m) | ContentPart::Video(m) | ContentPart::Document(m) => Some(m),
    }
}

/// The same medium: the same kind from the same source (its bytes, URL or file handle).
fn same_medium(a: &ContentPart, b: &ContentPart) -> bool {
    match (media(a), media(b)) {
        (Some(x), Some(y)) => a.kind() == b.kind() && x.source == y.source,
        _ => false,
    }
}
