//! The engine formats in the locale and time zone the app configured on the surface group
//! (`SurfaceGroup::with_localization`), en-US and UTC when it configured none (issue 12).

use crate::common;

use agentui_a2ui::{Localization, SurfaceGroup};
use common::{assert_clean, components, create, data};
use serde_json::{json, Value};

/// A surface `r` whose Text nodes show formatted values of its data model.
fn receipt(group: &mut SurfaceGroup) {
    let text = |id: &str, call: Value| json!({"id": id, "component": "Text", "text": call});
    let list = json!([
        {"id": "root", "component": "Column", "children": ["total", "paid", "delivery", "count", "items"]},
        text("total", json!({"call": "formatCurrency", "args": {"value": {"path": "/total"}, "currency": "EUR"}})),
        text("paid", json!({"call": "formatDate", "args": {"value": {"path": "/paidAt"}, "format": "EEEE d MMMM yyyy HH:mm"}})),
        text("delivery", json!({"call": "formatDate", "args": {"value": {"path": "/delivery"}, "format": "EEE d MMM yyyy"}})),
        text("count", json!({"call": "formatNumber", "args": {"value": {"path": "/points"}}})),
        text("items", json!({"call": "formatString", "args": {
            "value": "${/items} ${pluralize(value: ${/items}, one: 'item', few: 'few', many: 'many', other: 'items')}"}})),
    ]);
    for message in [
        create("r"),
        components("r", list),
        data(
            "r",
            "/",
            json!({"total": 1234.5, "paidAt": "2026-03-01T10:00:00Z", "delivery": "2026-03-02", "points": 12345.678, "items": 0}),
        ),
    ] {
        assert_clean(&group.process_value(&message));
    }
}

fn text(group: &SurfaceGroup, id: &str) -> String {
    group.surface("r").unwrap().node(id).unwrap().props["text"].as_str().unwrap().to_owned()
}

#[test]
fn a_group_without_a_localization_formats_for_en_us_in_utc() {
    let mut group = SurfaceGroup::default();
    assert_eq!((group.localization().locale(), group.localization().time_zone()), ("en-US", "UTC"));
    receipt(&mut group);
    assert_eq!(text(&group, "total"), "€1,234.50");
    assert_eq!(text(&group, "paid"), "Sunday 1 March 2026 10:00");
    assert_eq!(text(&group, "delivery"), "Mon 2 Mar 2026");
    assert_eq!(text(&group, "count"), "12,345.678");
    assert_eq!(text(&group, "items"), "0 items");
}

#[test]
fn a_group_formats_in_the_app_locale_and_time_zone() {
    let mut group = SurfaceGroup::default().with_localization(Localization::new("de-DE", "Europe/Berlin").unwrap());
    receipt(&mut group);
    assert_eq!(group.surface("r").unwrap().localization().locale(), "de-DE");
    assert_eq!(text(&group, "total"), "EUR 1.234,50");
    // 10:00 UTC is 11:00 in Berlin (CET); the delivery date is a calendar date, not shifted.
    assert_eq!(text(&group, "paid"), "Sonntag 1 März 2026 11:00");
    assert_eq!(text(&group, "delivery"), "Mo. 2 März 2026");
    assert_eq!(text(&group, "count"), "12.345,678");

    let mut group = SurfaceGroup::default().with_localization(Localization::new("ko-KR", "Asia/Seoul").unwrap());
    receipt(&mut group);
    assert_eq!(text(&group, "total"), "EUR 1,234.50");
    assert_eq!(text(&group, "paid"), "일요일 1 3월 2026 19:00");
    assert_eq!(text(&group, "delivery"), "월 2 3월 2026");
}

#[test]
fn a_data_write_is_formatted_in_the_same_locale() {
    let mut group = SurfaceGroup::default().with_localization(Localization::new("pl-PL", "Europe/Warsaw").unwrap());
    receipt(&mut group);
    assert_eq!(text(&group, "items"), "0 many");
    for (count, shown) in [(1, "1 item"), (3, "3 few"), (22, "22 few"), (25, "25 many")] {
        assert_clean(&group.process_value(&data("r", "/items", json!(count))));
        assert_eq!(text(&group, "items"), shown);
    }
    assert_clean(&group.process_value(&data("r", "/paidAt", json!("2026-07-01T10:00:00+02:00"))));
    assert_eq!(text(&group, "paid"), "środa 1 lipca 2026 10:00");
}

#[test]
fn pluralize_picks_a_given_zero_and_otherwise_follows_english_rules() {
    // D27: an exact 0 picks the `zero` the call gives; without one, CLDR's English rules make 0
    // `other` (1 is `one`, everything else `other`).
    let mut group = SurfaceGroup::default();
    let call = |count: i64| json!({"call": "pluralize", "args": {"value": count, "zero": "no items", "one": "one item", "other": "items"}});
    let bare = json!({"call": "pluralize", "args": {"value": 0, "one": "one item", "other": "items"}});
    let list = json!([
        {"id": "root", "component": "Column", "children": ["zero", "one", "bare"]},
        {"id": "zero", "component": "Text", "text": call(0)},
        {"id": "one", "component": "Text", "text": call(1)},
        {"id": "bare", "component": "Text", "text": bare},
    ]);
    assert_clean(&group.process_value(&create("r")));
    assert_clean(&group.process_value(&components("r", list)));
    assert_eq!(text(&group, "zero"), "no items");
    assert_eq!(text(&group, "one"), "one item");
    assert_eq!(text(&group, "bare"), "items");
}
