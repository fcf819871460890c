//! Property tests for JSON Pointer handling and the data model.

use agentui_a2ui::data_model::{DataModel, DataModelError};
use agentui_a2ui::pointer::{canonical, encode, parse_absolute, resolve};
use agentui_a2ui::Limits;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Tokens heavy on the characters that need escaping, plus arbitrary text now and then.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![4 => "[a~/01]{0,5}", 1 => any::<String>()]
}

fn tokens() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(token(), 0..6)
}

/// A non-null JSON value a few levels deep (nulls may appear inside).
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[a-z ]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        let item = prop_oneof![4 => inner, 1 => Just(Value::Null)];
        prop_oneof![
            prop::collection::vec(item.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z~/]{0,3}", item, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Raw path segments an agent might write, valid or not, so writes hit every branch.
fn raw_segment() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "s", "items", "o", "name", "0", "1", "2", "7", "-", "01", "+1", "99999999", "~0", "~1x", "~", "x~2", "",
    ])
    .prop_map(str::to_owned)
}

fn raw_path() -> impl Strategy<Value = String> {
    (prop::collection::vec(raw_segment(), 0..5), any::<bool>()).prop_map(|(segments, trailing)| {
        let mut path: String = segments.iter().map(|s| format!("/{s}")).collect();
        if trailing {
            path.push('/');
        }
        path
    })
}

fn seeded_model() -> DataModel {
    let mut model = DataModel::new(&Limits { max_value_depth: 6, ..Limits::default() });
    model.set("", Some(json!({"s": "text", "items": [1, {"name": "a"}, null], "o": {"name": 2}}))).unwrap();
    model
}

proptest! {
    #[test]
    fn encode_then_parse_round_trips(tokens in tokens()) {
        let encoded = encode(&tokens);
        prop_assert_eq!(parse_absolute(&encoded).unwrap(), tokens);
    }

    #[test]
    fn canonical_is_idempotent(path in "(/[a~/01x2]{0,4}){0,5}/?") {
        if let Ok(once) = canonical(&path) {
            prop_assert_eq!(canonical(&once).unwrap(), once.clone());
            prop_assert_eq!(encode(&parse_absolute(&path).unwrap()), once);
        }
    }

    #[test]
    fn canonical_of_encoded_is_itself(tokens in tokens()) {
        let encoded = encode(&tokens);
        prop_assert_eq!(canonical(&encoded).unwrap(), encoded);
    }

    #[test]
    fn resolve_appends_relative_tokens(base in tokens(), rel in prop::collection::vec(token(), 1..5)) {
        let base_path = encode(&base);
        let encoded_rel = encode(&rel);
        // A relative path is the encoded tokens without the leading slash.
        let relative = &encoded_rel[1..];
        prop_assume!(!relative.starts_with('/'));
        let resolved = resolve(&base_path, relative).unwrap();
        let mut all = base.clone();
        all.extend(rel.iter().cloned());
        prop_assert_eq!(parse_absolute(&resolved).unwrap(), all);
        // When base does not end with an empty token (the one case whose canonical form carries
        // an extra trailing slash) the result is literally base + "/" + the encoded tokens.
        if !base.last().is_some_and(String::is_empty) {
            prop_assert_eq!(resolved, format!("{base_path}/{relative}"));
        }
    }

    #[test]
    fn resolve_absolute_ignores_base(base in tokens(), path in tokens()) {
        let absolute = encode(&path);
        prop_assume!(!absolute.is_empty());
        prop_assert_eq!(resolve(&encode(&base), &absolute).unwrap(), absolute);
    }

    #[test]
    fn set_then_get_returns_the_value(path in prop::collection::vec(token(), 1..5), v in value()) {
        let mut model = DataModel::new(&Limits::default());
        let encoded = encode(&path);
        let change = match model.set(&encoded, Some(v.clone())) {
            Ok(change) => change,
            // Arbitrary text can spell a large index; that refusal is tested elsewhere.
            Err(DataModelError::IndexTooLarge { .. }) => return Ok(()),
            Err(err) => return Err(TestCaseError::fail(err.to_string())),
        };
        prop_assert_eq!(model.get(&change.path), Some(&v));
        if !path.iter().any(|t| t == "-") {
            prop_assert_eq!(model.get(&encoded), Some(&v));
        }
    }

    #[test]
    fn writes_either_land_or_change_nothing(path in raw_path(), v in prop::option::of(value())) {
        let mut model = seeded_model();
        let before = model.root().clone();
        match model.set(&path, v.clone()) {
            Err(_) => prop_assert_eq!(model.root(), &before),
            Ok(change) => {
                prop_assert!(model.root().is_object());
                match v {
                    Some(v) => prop_assert_eq!(model.get(&change.path), Some(&v)),
                    None if change.path.is_empty() => prop_assert_eq!(model.root(), &json!({})),
                    None => prop_assert_eq!(model.get(&change.path), None),
                }
            }
        }
    }

    #[test]
    fn failing_writes_leave_the_model_unchanged(
        prefix in prop::collection::vec(raw_segment(), 0..3),
        bad in prop::sample::select(vec!["s/x", "items/name", "items/01", "items/99999999", "x~2", "new/99999999"]),
        v in value(),
    ) {
        let mut model = seeded_model();
        let before = model.root().clone();
        let mut path: String = prefix.iter().map(|s| format!("/{s}")).collect();
        path.push('/');
        path.push_str(bad);
        if model.set(&path, Some(v)).is_err() {
            prop_assert_eq!(model.root(), &before);
        }
        // Written from the root, these always fail.
        let mut model = seeded_model();
        let err = model.set(&format!("/{bad}"), Some(json!(1)));
        prop_assert!(err.is_err());
        prop_assert_eq!(model.root(), &before);
    }

    #[test]
    fn too_deep_writes_change_nothing(depth in 1usize..12, path in prop::collection::vec("[a-z]{1,3}", 1..8)) {
        let mut model = DataModel::new(&Limits { max_value_depth: 6, ..Limits::default() });
        model.set("/keep", Some(json!(1))).unwrap();
        let before = model.root().clone();
        let mut v = json!("leaf");
        for _ in 0..depth {
            v = json!([v]);
        }
        let result = model.set(&encode(&path), Some(v));
        if path.len() + depth > 6 {
            let is_too_deep = matches!(result, Err(DataModelError::TooDeep { limit: 6, .. }));
            prop_assert!(is_too_deep);
            prop_assert_eq!(model.root(), &before);
        } else {
            prop_assert!(result.is_ok());
        }
    }

    #[test]
    fn delete_keeps_array_length(len in 0usize..20, index in 0usize..30, explicit_null in any::<bool>()) {
        let mut model = DataModel::new(&Limits::default());
        let items: Vec<Value> = (0..len).map(|i| json!(i)).collect();
        model.set("/items", Some(Value::Array(items))).unwrap();
        let value = if explicit_null { Some(Value::Null) } else { None };
        model.set(&format!("/items/{index}"), value).unwrap();
        let items = model.get("/items").and_then(Value::as_array).unwrap();
        prop_assert_eq!(items.len(), len);
        prop_assert_eq!(model.get(&format!("/items/{index}")), None);
        for (i, item) in items.iter().enumerate() {
            if i != index {
                prop_assert_eq!(item, &json!(i));
            }
        }
    }

    #[test]
    fn get_never_panics(path in any::<String>()) {
        let model = seeded_model();
        let _ = model.get(&path);
        let _ = model.get(&format!("/{path}"));
    }
}
