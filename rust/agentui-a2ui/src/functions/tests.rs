//! Unit tests for the basic catalog functions, over a small in-memory evaluator.

use serde_json::{json, Value};

use super::*;
use crate::dynamic::{Call, Dynamic, Evaluator};
use crate::locale::Localization;

/// Resolves `/abs` paths from the root and relative paths against `base`; records every read.
struct TestEv {
    root: Value,
    base: String,
    reads: Vec<String>,
    localization: Localization,
}

impl TestEv {
    fn new(root: Value) -> TestEv {
        TestEv { root, base: String::new(), reads: Vec::new(), localization: Localization::default() }
    }

    fn with_base(root: Value, base: &str) -> TestEv {
        TestEv { base: base.to_owned(), ..TestEv::new(root) }
    }

    /// The same evaluator formatting for `locale` in `time_zone`.
    fn localized(root: Value, locale: &str, time_zone: &str) -> TestEv {
        TestEv { localization: Localization::new(locale, time_zone).unwrap(), ..TestEv::new(root) }
    }

    fn resolve(&self, path: &str) -> Value {
        let full = if path.starts_with('/') {
            path.to_owned()
        } else if path.is_empty() {
            self.base.clone()
        } else {
            format!("{}/{}", self.base, path)
        };
        let mut cur = &self.root;
        for token in full.split('/').skip(1) {
            let token = token.replace("~1", "/").replace("~0", "~");
            cur = match cur {
                Value::Object(m) => match m.get(&token) {
                    Some(v) => v,
                    None => return Value::Null,
                },
                Value::Array(a) => match token.parse::<usize>().ok().and_then(|i| a.get(i)) {
                    Some(v) => v,
                    None => return Value::Null,
                },
                _ => return Value::Null,
            };
        }
        cur.clone()
    }
}

impl Evaluator for TestEv {
    fn read_path(&mut self, path: &str) -> Value {
        self.reads.push(path.to_owned());
        self.resolve(path)
    }

    fn eval(&mut self, value: &Dynamic) -> Value {
        match value {
            Dynamic::Literal(v) => v.clone(),
            Dynamic::Path(p) => self.read_path(p),
            Dynamic::Call(c) => evaluate(c, self).unwrap_or(Value::Null),
        }
    }

    fn localization(&self) -> &Localization {
        &self.localization
    }
}

fn parse_call(json: Value) -> Call {
    match Dynamic::parse(&json) {
        Dynamic::Call(c) => *c,
        other => panic!("not a call: {other:?}"),
    }
}

fn run(json: Value, data: Value) -> Result<Value, FunctionError> {
    evaluate(&parse_call(json), &mut TestEv::new(data))
}

fn ok(json: Value, data: Value) -> Value {
    run(json, data).expect("call should succeed")
}

fn is_invalid(r: Result<Value, FunctionError>) -> bool {
    matches!(r, Err(FunctionError::InvalidArgs { .. }))
}

fn fmt(template: &str, data: Value) -> String {
    match ok(json!({"call": "formatString", "args": {"value": template}}), data) {
        Value::String(s) => s,
        other => panic!("not a string: {other:?}"),
    }
}

fn fmt_err(template: &str, data: Value) -> FunctionError {
    run(json!({"call": "formatString", "args": {"value": template}}), data).expect_err("should fail")
}

mod coercion {
    use super::*;

    #[test]
    fn to_string_scalars() {
        assert_eq!(coerce_to_string(&json!("héllo")), "héllo");
        assert_eq!(coerce_to_string(&json!(1)), "1");
        assert_eq!(coerce_to_string(&json!(-42)), "-42");
        assert_eq!(coerce_to_string(&json!(1.0)), "1");
        assert_eq!(coerce_to_string(&json!(0.5)), "0.5");
        assert_eq!(coerce_to_string(&json!(-0.0)), "0");
        assert_eq!(coerce_to_string(&json!(0.1 + 0.2)), "0.30000000000000004");
        assert_eq!(coerce_to_string(&json!(123456789.125)), "123456789.125");
        assert_eq!(coerce_to_string(&json!(u64::MAX)), "18446744073709551615");
        assert_eq!(coerce_to_string(&json!(true)), "true");
        assert_eq!(coerce_to_string(&json!(false)), "false");
        assert_eq!(coerce_to_string(&Value::Null), "");
    }

    #[test]
    fn to_string_exponent_forms_match_javascript() {
        assert_eq!(coerce_to_string(&json!(1e21)), "1e+21");
        assert_eq!(coerce_to_string(&json!(1e20)), "100000000000000000000");
        assert_eq!(coerce_to_string(&json!(1.5e-7)), "1.5e-7");
        assert_eq!(coerce_to_string(&json!(0.000001)), "0.000001");
        assert_eq!(coerce_to_string(&json!(-2.5e300)), "-2.5e+300");
    }

    #[test]
    fn to_string_containers_are_compact_json() {
        assert_eq!(coerce_to_string(&json!([1, "a", null])), r#"[1,"a",null]"#);
        assert_eq!(coerce_to_string(&json!({"b": 1, "a": [true]})), r#"{"b":1,"a":[true]}"#);
        assert_eq!(coerce_to_string(&json!([])), "[]");
    }

    #[test]
    fn to_bool() {
        for v in [json!(true), json!(1), json!(-0.5), json!("true"), json!("TRUE"), json!("True")] {
            assert!(coerce_to_bool(&v), "{v} should be true");
        }
        for v in [
            json!(false),
            json!(0),
            json!(0.0),
            json!(""),
            json!("false"),
            json!("yes"),
            json!("1"),
            json!(" true"),
            Value::Null,
            json!([]),
            json!([true]),
            json!({}),
        ] {
            assert!(!coerce_to_bool(&v), "{v} should be false");
        }
    }
}

mod format_string {
    use super::*;

    #[test]
    fn plain_text_and_paths() {
        let data = json!({"user": {"name": "Ada", "age": 36}, "price": 9.5});
        assert_eq!(fmt("hello", data.clone()), "hello");
        assert_eq!(fmt("", data.clone()), "");
        assert_eq!(fmt("Hi ${/user/name}!", data.clone()), "Hi Ada!");
        assert_eq!(fmt("${/user/name} is ${/user/age}", data.clone()), "Ada is 36");
        assert_eq!(fmt("Price: ${/price} USD", data.clone()), "Price: 9.5 USD");
        assert_eq!(fmt("${ /user/name }", data.clone()), "Ada");
        assert_eq!(fmt("[${/missing}]", data), "[]");
    }

    #[test]
    fn values_are_coerced() {
        let data = json!({"b": true, "n": 2.0, "o": {"k": [1]}, "z": null});
        assert_eq!(fmt("${/b} ${/n} ${/o} [${/z}]", data), r#"true 2 {"k":[1]} []"#);
    }

    #[test]
    fn unicode_text_is_kept() {
        assert_eq!(fmt("héllo ${/a} wörld 👍 $ \\ {}", json!({"a": "ß"})), "héllo ß wörld 👍 $ \\ {}");
    }

    #[test]
    fn relative_paths_are_passed_as_written() {
        let data = json!({"items": [{"name": "a"}, {"name": "b", "tags": ["x"]}]});
        let call = parse_call(json!({"call": "formatString", "args": {"value": "${name}/${tags/0}/${/items/0/name}"}}));
        let mut ev = TestEv::with_base(data, "/items/1");
        assert_eq!(evaluate(&call, &mut ev).unwrap(), json!("b/x/a"));
        assert_eq!(ev.reads, vec!["name", "tags/0", "/items/0/name"]);
    }

    #[test]
    fn escapes() {
        let data = json!({"a": 1});
        assert_eq!(fmt(r"\${/a}", data.clone()), "${/a}");
        assert_eq!(fmt(r"cost: \${5} and ${/a}", data.clone()), "cost: ${5} and 1");
        assert_eq!(fmt(r"back\slash \$ \{", data.clone()), r"back\slash \$ \{");
        assert_eq!(fmt(r"\\${/a}", data), r"\${/a}");
    }

    #[test]
    fn literal_expressions() {
        let data = json!({});
        assert_eq!(fmt("${'x'}${\"y\"}", data.clone()), "xy");
        assert_eq!(fmt("${42} ${-1.5} ${1e3}", data.clone()), "42 -1.5 1000");
        assert_eq!(fmt("${true} ${false} [${null}]", data.clone()), "true false []");
        assert_eq!(fmt(r"${'it\'s'} ${'a\nb'} ${'}'}", data.clone()), "it's a\nb }");
        assert_eq!(fmt("[${}]", data), "[]");
    }

    #[test]
    fn literal_like_paths() {
        // A number or keyword followed by path characters is a relative path.
        let data = json!({"0": {"name": "zero"}, "true": {"x": "t"}});
        let call = parse_call(json!({"call": "formatString", "args": {"value": "${0/name} ${true/x}"}}));
        let mut ev = TestEv::new(data);
        assert_eq!(evaluate(&call, &mut ev).unwrap(), json!("zero t"));
        assert_eq!(ev.reads, vec!["0/name", "true/x"]);
    }

    #[test]
    fn nested_interpolation() {
        assert_eq!(fmt("${${/a}}", json!({"a": "v"})), "v");
    }

    #[test]
    fn malformed_templates_are_errors() {
        let data = json!({"a": "A"});
        for bad in [
            "${/a",
            "x ${",
            "${oops ${/a}",
            "${'unterminated} ${/a}",
            "${f(x: 1} ${/a}",
            "${/a b} ${/a}",
            "${,} ${/a}",
            "${formatNumber(value: )} ${/a}",
            "${f(a 1)}",
            "${1.2.3}",
            "${1e}",
            "${1e999}",
        ] {
            assert!(matches!(fmt_err(bad, data.clone()), FunctionError::InvalidArgs { .. }), "{bad}");
        }
    }

    #[test]
    fn parse_errors_say_what_is_wrong() {
        let message = |t: &str| parse_template(t).expect_err(t).message;
        assert!(message("hello ${world").starts_with("Unclosed interpolation"));
        assert!(message("${true false}").starts_with("Unexpected characters"));
        assert!(message("${add(a: 1, b: 2}").contains("after function arguments"));
        assert!(message("${add(a 1)}").contains("after argument name"));
        assert!(message("${.5.5}").starts_with("Invalid number literal"));
        assert!(message("${-1e999}").contains("out of range"));
        let deep = format!("{}1{}", "${".repeat(101), "}".repeat(101));
        assert!(message(&deep).starts_with("Max recursion depth"));
        let at_limit = format!("{}1{}", "${".repeat(100), "}".repeat(100));
        assert_eq!(parse_template(&at_limit), Ok(vec![TemplatePart::Literal(json!(1))]));
    }

    #[test]
    fn number_literals_follow_the_grammar() {
        let one = |t: &str| match parse_template(t).expect(t).as_slice() {
            [TemplatePart::Literal(v)] => v.clone(),
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(one("${+1}"), json!(1));
        assert_eq!(one("${007}"), json!(7));
        assert_eq!(one("${1.}"), json!(1.0));
        assert_eq!(one("${-.5}"), json!(-0.5));
        assert_eq!(one("${.5e2}"), json!(50.0));
        assert_eq!(one("${1e-999}"), json!(0.0));
        assert_eq!(one("${9007199254740991}"), json!(9_007_199_254_740_991_i64));
        // Not numbers: paths.
        assert_eq!(
            parse_template("${.foo}${-.}${a-1}"),
            Ok(vec![
                TemplatePart::Path(".foo".into()),
                TemplatePart::Path("-.".into()),
                TemplatePart::Path("a-1".into()),
            ])
        );
    }

    #[test]
    fn nested_calls_spec_examples() {
        let data = json!({"currentDate": "2026-01-16T14:30:00Z", "reviewCount": 1234, "goal": 10000, "progress": 42});
        assert_eq!(fmt("${formatDate(value:${/currentDate}, format:'MM-dd')}", data.clone()), "01-16");
        assert_eq!(
            fmt("${formatNumber(value: ${/reviewCount})} ${pluralize(value: ${/reviewCount}, one: 'review', other: 'reviews')}", data.clone()),
            "1,234 reviews"
        );
        assert_eq!(fmt("${/progress}% of ${formatNumber(value: ${/goal})} goal", data.clone()), "42% of 10,000 goal");
        assert_eq!(fmt("${formatCurrency(value: 12, currency: 'USD')}/year", data), "$12.00/year");
    }

    #[test]
    fn call_arguments_may_be_bare_paths_and_nested_calls() {
        let data = json!({"n": 1, "d": "2026-01-16"});
        assert_eq!(fmt("${pluralize(value: /n, one: 'item', other: 'items')}", data.clone()), "item");
        assert_eq!(fmt("${formatString(value: 'n=${/n}')}", data.clone()), "n=1");
        assert_eq!(fmt("${formatString(value: ${formatDate(value: ${/d}, format: 'yyyy')})}", data.clone()), "2026");
        assert_eq!(fmt("${ formatDate ( value : /d , format : \"d MMM\" ) }", data), "16 Jan");
    }

    #[test]
    fn positional_arguments_follow_declaration_order() {
        let data = json!({"currentDate": "2026-01-16"});
        assert_eq!(fmt("${formatDate(${/currentDate}, 'yyyy-MM-dd')}", data.clone()), "2026-01-16");
        assert_eq!(fmt("${formatNumber(1234.567, 1, false)}", data), "1234.6");
    }

    #[test]
    fn relative_paths_inside_nested_calls() {
        let data = json!({"rows": [{"price": 5}]});
        let call = parse_call(
            json!({"call": "formatString", "args": {"value": "${formatCurrency(value: ${price}, currency: 'EUR')}"}}),
        );
        let mut ev = TestEv::with_base(data, "/rows/0");
        assert_eq!(evaluate(&call, &mut ev).unwrap(), json!("€5.00"));
        assert_eq!(ev.reads, vec!["price"]);
    }

    #[test]
    fn unknown_function_in_template_fails_the_call() {
        assert_eq!(fmt_err("now: ${now()}", json!({})), FunctionError::Unknown("now".into()));
    }

    #[test]
    fn failing_nested_call_fails_the_call() {
        assert!(matches!(
            fmt_err("${formatDate(value: 'nope', format: 'yyyy')}", json!({})),
            FunctionError::InvalidArgs { .. }
        ));
        // On the calendar or nothing: an impossible date shows as empty, never rolled over.
        assert_eq!(fmt("[${formatDate(value: '2026-02-30', format: 'yyyy-MM-dd')}]", json!({})), "[]");
        assert_eq!(fmt("[${formatDate(value: '2026-13-01', format: 'yyyy')}]", json!({})), "[]");
        // A time that is not on the clock stays an error.
        assert!(matches!(
            fmt_err("${formatDate(value: '2026-01-16T25:00', format: 'yyyy')}", json!({})),
            FunctionError::InvalidArgs { .. }
        ));
    }

    #[test]
    fn dynamic_template_is_parsed_at_evaluation() {
        let data = json!({"tpl": "Hello ${/name}", "name": "Bo"});
        let call = parse_call(json!({"call": "formatString", "args": {"value": {"path": "/tpl"}}}));
        assert_eq!(call.prepared, Prepared::None);
        let mut ev = TestEv::new(data);
        assert_eq!(evaluate(&call, &mut ev).unwrap(), json!("Hello Bo"));
        assert_eq!(ev.reads, vec!["/tpl", "/name"]);
    }

    #[test]
    fn literal_template_is_prepared() {
        let call = parse_call(json!({"call": "formatString", "args": {"value": "x ${/a}"}}));
        assert!(matches!(call.prepared, Prepared::Function(_)));
    }

    #[test]
    fn manual_call_without_prepare_still_works() {
        let call = Call {
            name: "formatString".into(),
            args: vec![("value".into(), Dynamic::Literal(json!("v=${/v}")))],
            return_type: None,
            catalog_id: None,
            prepared: Prepared::None,
        };
        assert_eq!(evaluate(&call, &mut TestEv::new(json!({"v": 3}))).unwrap(), json!("v=3"));
    }

    #[test]
    fn value_types() {
        assert_eq!(ok(json!({"call": "formatString", "args": {"value": {"path": "/x"}}}), json!({})), json!(""));
        assert!(is_invalid(run(json!({"call": "formatString", "args": {"value": 5}}), json!({}))));
        assert!(is_invalid(run(json!({"call": "formatString", "args": {}}), json!({}))));
    }

    #[test]
    fn deep_template_nesting_is_bounded() {
        let deep = format!("{}/a{}", "${".repeat(200), "}".repeat(200));
        assert!(matches!(fmt_err(&deep, json!({"a": 1})), FunctionError::InvalidArgs { .. }));
        let deep_calls = format!("{}1{}", "${formatString(value: ".repeat(100), ")}".repeat(100));
        let _ = run(json!({"call": "formatString", "args": {"value": deep_calls}}), json!({}));
    }

    #[test]
    fn nested_string_templates() {
        // Each level is a formatString whose literal template holds the next one. Escaping makes
        // the text grow exponentially with the depth, so this nesting is bounded by input size.
        let mut t = String::from("${/a}");
        for _ in 0..12 {
            let escaped = t.replace('\\', "\\\\").replace('\'', "\\'");
            t = format!("${{formatString(value: '{escaped}')}}");
        }
        assert_eq!(fmt(&t, json!({"a": 1})), "1");
    }

    #[test]
    fn self_referencing_template_in_data_is_bounded() {
        let data = json!({"t": "${formatString(value: ${/t})}"});
        let call = parse_call(json!({"call": "formatString", "args": {"value": {"path": "/t"}}}));
        let r = evaluate(&call, &mut TestEv::new(data));
        assert!(is_invalid(r));
        // The depth counter is released afterwards.
        assert_eq!(fmt("${/a}", json!({"a": 2})), "2");
    }

    #[test]
    fn pathological_input_is_linear() {
        let s = "${'".repeat(20_000);
        let start = std::time::Instant::now();
        assert!(parse_template(&s).is_err());
        let s2 = "${f(".repeat(20_000);
        assert!(parse_template(&s2).is_err());
        let s3 = "x \\${".repeat(20_000);
        assert_eq!(parse_template(&s3).map(|p| p.len()), Ok(1));
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in r#"[\$\{\}\\'"(),: a-z/0-9é_.-]{0,40}"#) {
            let call = parse_call(json!({"call": "formatString", "args": {"value": s}}));
            let _ = evaluate(&call, &mut TestEv::new(json!({"a": 1})));
        }

        #[test]
        fn text_without_dollar_is_identity(s in r#"[^\$\\]{0,40}"#) {
            proptest::prop_assert_eq!(fmt(&s, json!({})), s);
        }
    }
}

mod format_number {
    use super::*;

    fn num(args: Value) -> Result<Value, FunctionError> {
        run(json!({"call": "formatNumber", "args": args}), json!({"s": "1234", "n": null}))
    }

    fn n(args: Value) -> String {
        num(args).unwrap().as_str().unwrap().to_owned()
    }

    #[test]
    fn defaults() {
        assert_eq!(n(json!({"value": 1234.5})), "1,234.5");
        assert_eq!(n(json!({"value": 1234567})), "1,234,567");
        assert_eq!(n(json!({"value": 1.23456})), "1.235");
        assert_eq!(n(json!({"value": 0.1 + 0.2})), "0.3");
        assert_eq!(n(json!({"value": 0})), "0");
        assert_eq!(n(json!({"value": 999})), "999");
        assert_eq!(n(json!({"value": -1234.5})), "-1,234.5");
        assert_eq!(n(json!({"value": 12345678901234567890u64})), "12,345,678,901,234,567,890");
        assert_eq!(n(json!({"value": 1e21})), "1,000,000,000,000,000,000,000");
        assert_eq!(n(json!({"value": 0.0001})), "0");
    }

    #[test]
    fn fixed_decimals_round_half_away_from_zero() {
        assert_eq!(n(json!({"value": 1234.5, "decimals": 2})), "1,234.50");
        assert_eq!(n(json!({"value": 1.005, "decimals": 2})), "1.01");
        assert_eq!(n(json!({"value": 2.5, "decimals": 0})), "3");
        assert_eq!(n(json!({"value": -2.5, "decimals": 0})), "-3");
        assert_eq!(n(json!({"value": 0.125, "decimals": 2})), "0.13");
        assert_eq!(n(json!({"value": 999.999, "decimals": 2})), "1,000.00");
        assert_eq!(n(json!({"value": 9.96, "decimals": 1})), "10.0");
        assert_eq!(n(json!({"value": 7, "decimals": 3})), "7.000");
        assert_eq!(n(json!({"value": 2.0, "decimals": 2.0})), "2.00");
        assert_eq!(n(json!({"value": 0.1, "decimals": 20})), "0.10000000000000000000");
    }

    #[test]
    fn negative_zero_has_no_sign() {
        assert_eq!(n(json!({"value": -0.001, "decimals": 2})), "0.00");
        assert_eq!(n(json!({"value": -0.0})), "0");
        assert_eq!(n(json!({"value": -0.0004})), "0");
    }

    #[test]
    fn grouping_flag() {
        assert_eq!(n(json!({"value": 1234567.891, "grouping": false})), "1234567.891");
        assert_eq!(n(json!({"value": 1234, "grouping": true})), "1,234");
        assert_eq!(n(json!({"value": 1234, "grouping": null})), "1,234");
    }

    #[test]
    fn value_kinds() {
        assert_eq!(n(json!({"value": {"path": "/s"}})), "1,234");
        assert_eq!(n(json!({"value": " 12.5 "})), "12.5");
        assert_eq!(n(json!({"value": {"path": "/n"}})), "");
        assert_eq!(n(json!({"value": {"path": "/missing"}})), "");
        assert!(is_invalid(num(json!({"value": true}))));
        assert!(is_invalid(num(json!({"value": "abc"}))));
        assert!(is_invalid(num(json!({"value": "NaN"}))));
        assert!(is_invalid(num(json!({"value": "inf"}))));
        assert!(is_invalid(num(json!({"value": [1]}))));
        assert!(is_invalid(num(json!({}))));
    }

    #[test]
    fn bad_options() {
        assert!(is_invalid(num(json!({"value": 1, "decimals": -1}))));
        assert!(is_invalid(num(json!({"value": 1, "decimals": 2.5}))));
        assert!(is_invalid(num(json!({"value": 1, "decimals": 21}))));
        assert!(is_invalid(num(json!({"value": 1, "decimals": "2"}))));
        assert!(is_invalid(num(json!({"value": 1, "decimals": true}))));
        assert!(is_invalid(num(json!({"value": 1, "grouping": "yes"}))));
        assert!(is_invalid(num(json!({"value": 1, "grouping": 1}))));
    }
}

mod format_currency {
    use super::*;

    fn cur(args: Value) -> Result<Value, FunctionError> {
        run(json!({"call": "formatCurrency", "args": args}), json!({"price": 19.99}))
    }

    fn c(args: Value) -> String {
        cur(args).unwrap().as_str().unwrap().to_owned()
    }

    #[test]
    fn symbols_and_minor_units() {
        assert_eq!(c(json!({"value": 1234.5, "currency": "USD"})), "$1,234.50");
        assert_eq!(c(json!({"value": {"path": "/price"}, "currency": "USD"})), "$19.99");
        assert_eq!(c(json!({"value": 1234.5, "currency": "EUR"})), "€1,234.50");
        assert_eq!(c(json!({"value": 1234.5, "currency": "GBP"})), "£1,234.50");
        assert_eq!(c(json!({"value": 1234.5, "currency": "JPY"})), "¥1,235");
        assert_eq!(c(json!({"value": 50000, "currency": "KRW"})), "₩50,000");
        assert_eq!(c(json!({"value": 10, "currency": "INR"})), "₹10.00");
        assert_eq!(c(json!({"value": 10, "currency": "CNY"})), "CN¥10.00");
        assert_eq!(c(json!({"value": 1234.5, "currency": "CHF"})), "CHF 1,234.50");
        assert_eq!(c(json!({"value": 1.2345, "currency": "KWD"})), "KWD 1.235");
        assert_eq!(c(json!({"value": 1, "currency": "usd"})), "$1.00");
    }

    #[test]
    fn negative_and_options() {
        assert_eq!(c(json!({"value": -5, "currency": "USD"})), "-$5.00");
        assert_eq!(c(json!({"value": -5, "currency": "CHF"})), "-CHF 5.00");
        assert_eq!(c(json!({"value": -0.001, "currency": "USD"})), "$0.00");
        assert_eq!(c(json!({"value": 1234.567, "currency": "USD", "decimals": 0})), "$1,235");
        assert_eq!(c(json!({"value": 1234.5, "currency": "USD", "grouping": false})), "$1234.50");
        assert_eq!(c(json!({"value": 5, "currency": "JPY", "decimals": 2})), "¥5.00");
        assert_eq!(c(json!({"value": null, "currency": "USD"})), "");
    }

    #[test]
    fn bad_currency() {
        assert!(is_invalid(cur(json!({"value": 1}))));
        assert!(is_invalid(cur(json!({"value": 1, "currency": "US"}))));
        assert!(is_invalid(cur(json!({"value": 1, "currency": "U$D"}))));
        assert!(is_invalid(cur(json!({"value": 1, "currency": "EURO"}))));
        assert!(is_invalid(cur(json!({"value": 1, "currency": 840}))));
        assert!(is_invalid(cur(json!({"value": 1, "currency": "ÄÖÜ"}))));
        assert!(is_invalid(cur(json!({"value": "x", "currency": "USD"}))));
    }
}

mod format_date {
    use super::*;

    const DT: &str = "2026-01-16T14:30:00Z";

    fn date(value: Value, format: &str) -> Result<Value, FunctionError> {
        run(json!({"call": "formatDate", "args": {"value": value, "format": format}}), json!({}))
    }

    fn d(value: Value, format: &str) -> String {
        date(value, format).unwrap().as_str().unwrap().to_owned()
    }

    #[test]
    fn spec_examples() {
        assert_eq!(d(json!(DT), "MMM dd, yyyy"), "Jan 16, 2026");
        assert_eq!(d(json!(DT), "HH:mm"), "14:30");
        assert_eq!(d(json!(DT), "h:mm a"), "2:30 PM");
        assert_eq!(d(json!(DT), "EEEE, d MMMM"), "Friday, 16 January");
        assert_eq!(d(json!(DT), "yy"), "26");
        assert_eq!(d(json!(DT), "M"), "1");
        assert_eq!(d(json!(DT), "E"), "Fri");
        assert_eq!(d(json!(DT), "EEEE, MMMM d, yyyy 'at' h:mm a"), "Friday, January 16, 2026 at 2:30 PM");
    }

    #[test]
    fn all_fields() {
        let v = json!("2024-03-05T09:07:03.0456Z");
        assert_eq!(d(v.clone(), "y yy yyy yyyy yyyyy"), "2024 24 2024 2024 02024");
        assert_eq!(d(v.clone(), "M MM MMM MMMM MMMMM L"), "3 03 Mar March M 3");
        assert_eq!(d(v.clone(), "d dd D DDD"), "5 05 65 065");
        assert_eq!(d(v.clone(), "E EE EEE EEEE EEEEE EEEEEE"), "Tue Tue Tue Tuesday T Tu");
        assert_eq!(d(v.clone(), "h hh H HH K k m mm s ss"), "9 09 9 09 9 9 7 07 3 03");
        assert_eq!(d(v.clone(), "S SS SSS SSSSSSSSSSS"), "0 04 045 04560000000");
        assert_eq!(d(v, "a aaaaa"), "AM a");
    }

    #[test]
    fn twelve_hour_clock_edges() {
        assert_eq!(d(json!("2026-01-16T00:05:00"), "h:mm a K k"), "12:05 AM 0 24");
        assert_eq!(d(json!("2026-01-16T12:00:00"), "h:mm a K k"), "12:00 PM 0 12");
        assert_eq!(d(json!("2026-01-16T23:59:59"), "hh:mm:ss a"), "11:59:59 PM");
    }

    #[test]
    fn quoting() {
        assert_eq!(d(json!(DT), "''"), "'");
        assert_eq!(d(json!(DT), "h 'o''clock'"), "2 o'clock");
        assert_eq!(d(json!(DT), "'yyyy' yyyy"), "yyyy 2026");
        assert_eq!(d(json!(DT), "yyyy 'unterminated"), "2026 unterminated");
        assert_eq!(d(json!(DT), "yyyy/MM/dd — HH.mm"), "2026/01/16 — 14.30");
    }

    #[test]
    fn value_forms() {
        assert_eq!(d(json!("2026-01-16"), "yyyy-MM-dd HH:mm"), "2026-01-16 00:00");
        assert_eq!(d(json!("14:30"), "h:mm a"), "2:30 PM");
        assert_eq!(d(json!("14:30:15.5"), "HH:mm:ss.SSS"), "14:30:15.500");
        assert_eq!(d(json!("2026-01-16 08:00"), "HH:mm"), "08:00");
        assert_eq!(d(json!("2026-01-16t08:00:00z"), "HH:mm"), "08:00");
        assert_eq!(d(json!(" 2026-01-16 "), "d"), "16");
        assert_eq!(d(json!("2024-02-29T10:00:00.123456789123+05:30"), "d MMM SSSSSSSSS"), "29 Feb 123456789");
    }

    #[test]
    fn offsets_name_an_instant_shown_in_the_time_zone() {
        // The evaluator's zone is UTC (the default). These used to keep the written wall clock
        // ("16 23:30" each): issue 12 converts an instant to the user's zone instead.
        assert_eq!(d(json!("2026-01-16T23:30:00-05:00"), "dd HH:mm"), "17 04:30");
        assert_eq!(d(json!("2026-01-16T23:30:00+0530"), "dd HH:mm"), "16 18:00");
        assert_eq!(d(json!("2026-01-16T23:30:00+01"), "dd HH:mm"), "16 22:30");
        // Without an offset a date-time is a wall-clock time: shown as written.
        assert_eq!(d(json!("2026-01-16T23:30:00"), "dd HH:mm"), "16 23:30");
    }

    #[test]
    fn epoch_millis_are_utc() {
        assert_eq!(d(json!(0), "yyyy-MM-dd HH:mm"), "1970-01-01 00:00");
        assert_eq!(d(json!(1768573800000u64), "MMM d, yyyy h:mm a"), "Jan 16, 2026 2:30 PM");
        assert_eq!(d(json!(-86400000), "yyyy-MM-dd"), "1969-12-31");
        assert_eq!(d(json!(1500.7), "ss.SSSS"), "01.5007");
        assert!(is_invalid(date(json!(1e20), "yyyy")));
    }

    #[test]
    fn empty_values() {
        assert_eq!(d(Value::Null, "yyyy"), "");
        assert_eq!(d(json!(""), "yyyy"), "");
        assert_eq!(
            ok(json!({"call": "formatDate", "args": {"value": {"path": "/none"}, "format": "yyyy"}}), json!({})),
            json!("")
        );
    }

    #[test]
    fn invalid_values() {
        for v in [
            "hello",
            "2026-01-16T25:00",
            "2026-01-16T10:60",
            "2026-01-16X10:00",
            "2026-01-16T10:00:00+25:00",
            "2026-01-16T10:00:00+5",
            "2026-1-16",
            "10:00:00.",
            "10:00:0",
            "１２:00",
        ] {
            assert!(is_invalid(date(json!(v), "yyyy HH")), "{v} should be invalid");
        }
        assert!(is_invalid(date(json!(true), "yyyy")));
        assert!(is_invalid(date(json!({"y": 1}), "yyyy")));
    }

    #[test]
    fn time_only_value_with_date_fields() {
        let e = date(json!("14:30"), "yyyy");
        assert!(is_invalid(e.clone()), "{e:?}");
        // Names need a date too (the error names the letter); a day period does not.
        let names = date(json!("14:30"), "EEEE MMM");
        assert!(
            matches!(&names, Err(FunctionError::InvalidArgs { reason, .. }) if reason.contains("'E'")),
            "{names:?}"
        );
        assert_eq!(d(json!("14:30"), "h a"), "2 PM");
    }

    #[test]
    fn invalid_patterns() {
        assert!(is_invalid(date(json!(DT), "yyyy Q")));
        assert!(is_invalid(date(json!(DT), "zzzz")));
        let missing = run(json!({"call": "formatDate", "args": {"value": DT}}), json!({}));
        assert!(is_invalid(missing));
        let null_format = run(json!({"call": "formatDate", "args": {"value": DT, "format": null}}), json!({}));
        assert!(is_invalid(null_format));
        // An invalid literal pattern is reported even when the value is empty.
        assert!(is_invalid(date(Value::Null, "Q")));
    }

    #[test]
    fn dynamic_format() {
        let data = json!({"f": "yyyy", "d": DT});
        let r = ok(json!({"call": "formatDate", "args": {"value": {"path": "/d"}, "format": {"path": "/f"}}}), data);
        assert_eq!(r, json!("2026"));
    }
}

mod pluralize {
    use super::*;

    fn p(args: Value) -> Result<Value, FunctionError> {
        run(json!({"call": "pluralize", "args": args}), json!({"n": 1}))
    }

    #[test]
    fn english_rules() {
        let forms = |v: Value| json!({"value": v, "zero": "none", "one": "one item", "other": "many items"});
        assert_eq!(p(forms(json!(1))).unwrap(), json!("one item"));
        assert_eq!(p(forms(json!(1.0))).unwrap(), json!("one item"));
        assert_eq!(p(forms(json!(-1))).unwrap(), json!("one item"));
        // An exact 0 picks the given `zero` (D27), though CLDR's English 0 is `other`; see
        // `pluralize_exact_zero_and_two_win_over_the_category` in the locale tests.
        assert_eq!(p(forms(json!(0))).unwrap(), json!("none"));
        assert_eq!(p(forms(json!(0.0))).unwrap(), json!("none"));
        assert_eq!(p(forms(json!(2))).unwrap(), json!("many items"));
        assert_eq!(p(forms(json!(1.5))).unwrap(), json!("many items"));
        assert_eq!(p(forms(json!("1"))).unwrap(), json!("one item"));
        assert_eq!(p(forms(json!({"path": "/n"}))).unwrap(), json!("one item"));
        assert_eq!(p(forms(Value::Null)).unwrap(), json!("many items"));
    }

    #[test]
    fn fallbacks_to_other() {
        assert_eq!(p(json!({"value": 0, "one": "a", "other": "b"})).unwrap(), json!("b"));
        assert_eq!(p(json!({"value": 1, "other": "b"})).unwrap(), json!("b"));
        assert_eq!(p(json!({"value": 2, "few": "f", "many": "m", "other": "o"})).unwrap(), json!("o"));
        assert_eq!(p(json!({"value": 2, "two": "t", "few": "f", "many": "m", "other": "o"})).unwrap(), json!("t"));
        assert_eq!(p(json!({"value": 3, "other": 7})).unwrap(), json!("7"));
    }

    #[test]
    fn bad_args() {
        assert!(is_invalid(p(json!({"value": 1, "one": "a"}))));
        assert!(is_invalid(p(json!({"other": "a"}))));
        assert!(is_invalid(p(json!({"value": "x", "other": "a"}))));
        assert!(is_invalid(p(json!({"value": true, "other": "a"}))));
    }

    #[test]
    fn only_the_chosen_form_is_evaluated() {
        let call = parse_call(json!({"call": "pluralize", "args": {
            "value": {"path": "/n"}, "one": {"path": "/one"}, "other": {"path": "/other"}}}));
        let mut ev = TestEv::new(json!({"n": 1, "one": "x", "other": "y"}));
        assert_eq!(evaluate(&call, &mut ev).unwrap(), json!("x"));
        assert_eq!(ev.reads, vec!["/n", "/one"]);
    }
}

/// Formatting in the app's locale and time zone (issue 12). Expected texts are what CLDR (and so
/// `Intl` in a browser) gives for the locale, except currencies outside en-US: see `number.rs`.
mod locale {
    use super::*;

    fn in_locale(locale: &str, time_zone: &str, call: Value) -> String {
        let mut ev = TestEv::localized(json!({}), locale, time_zone);
        match evaluate(&parse_call(call), &mut ev) {
            Ok(Value::String(s)) => s,
            other => panic!("{locale} {time_zone}: {other:?}"),
        }
    }

    fn number(locale: &str, args: Value) -> String {
        in_locale(locale, "UTC", json!({"call": "formatNumber", "args": args}))
    }

    fn currency(locale: &str, args: Value) -> String {
        in_locale(locale, "UTC", json!({"call": "formatCurrency", "args": args}))
    }

    fn date(locale: &str, time_zone: &str, value: Value, format: &str) -> String {
        in_locale(locale, time_zone, json!({"call": "formatDate", "args": {"value": value, "format": format}}))
    }

    fn plural(locale: &str, count: Value) -> String {
        let forms = json!({"value": count, "zero": "zero", "one": "one", "two": "two", "few": "few",
            "many": "many", "other": "other"});
        in_locale(locale, "UTC", json!({"call": "pluralize", "args": forms}))
    }

    #[test]
    fn en_us_numbers_currency_and_dates() {
        assert_eq!(number("en-US", json!({"value": 1234567.891})), "1,234,567.891");
        assert_eq!(number("en-US", json!({"value": -1234.5, "decimals": 2})), "-1,234.50");
        assert_eq!(currency("en-US", json!({"value": 1234.5, "currency": "USD"})), "$1,234.50");
        assert_eq!(currency("en-US", json!({"value": -5, "currency": "EUR"})), "-€5.00");
        assert_eq!(currency("en-US", json!({"value": 1234.5, "currency": "CHF"})), "CHF 1,234.50");
        assert_eq!(
            date("en-US", "UTC", json!("2026-01-16T14:30:00Z"), "EEEE, MMMM d, yyyy 'at' h:mm a"),
            "Friday, January 16, 2026 at 2:30 PM"
        );
        // `en` alone is US English in CLDR.
        assert_eq!(currency("en", json!({"value": 3, "currency": "USD"})), "$3.00");
    }

    #[test]
    fn de_de_numbers_currency_and_dates() {
        assert_eq!(number("de-DE", json!({"value": 1234567.891})), "1.234.567,891");
        assert_eq!(number("de-DE", json!({"value": 1234.5, "decimals": 2})), "1.234,50");
        assert_eq!(number("de-DE", json!({"value": 1234567.891, "grouping": false})), "1234567,891");
        assert_eq!(number("de-DE", json!({"value": -0.001, "decimals": 2})), "0,00");
        assert_eq!(currency("de-DE", json!({"value": 1234.5, "currency": "EUR"})), "EUR 1.234,50");
        assert_eq!(currency("de-DE", json!({"value": -5, "currency": "USD"})), "-USD 5,00");
        assert_eq!(currency("de-DE", json!({"value": 1234.567, "currency": "JPY"})), "JPY 1.235");
        assert_eq!(
            date("de-DE", "UTC", json!("2026-01-16T14:30:00Z"), "EEEE, d. MMMM yyyy, HH:mm"),
            "Freitag, 16. Januar 2026, 14:30"
        );
        assert_eq!(date("de-DE", "UTC", json!("2026-03-05"), "EEE d. MMM"), "Do. 5. März");
        // Stand-alone month names differ from the format ones in German.
        assert_eq!(date("de-DE", "UTC", json!("2026-03-05"), "LLL"), "Mär");
    }

    #[test]
    fn ko_kr_numbers_currency_and_dates() {
        assert_eq!(number("ko-KR", json!({"value": 1234567.891})), "1,234,567.891");
        assert_eq!(currency("ko-KR", json!({"value": 50000, "currency": "KRW"})), "KRW 50,000");
        assert_eq!(currency("ko-KR", json!({"value": 1234.5, "currency": "USD"})), "USD 1,234.50");
        assert_eq!(
            date("ko-KR", "UTC", json!("2026-01-16T14:30:00Z"), "yyyy년 M월 d일 EEEE a h:mm"),
            "2026년 1월 16일 금요일 오후 2:30"
        );
        assert_eq!(date("ko-KR", "UTC", json!("2026-01-16T09:05:00Z"), "MMM d일 (E) a h시"), "1월 16일 (금) 오전 9시");
    }

    #[test]
    fn other_scripts_use_their_digits_and_signs() {
        // Arabic (Egypt): Arabic-Indic digits and separators; the minus sign carries a bidi mark.
        assert_eq!(number("ar-EG", json!({"value": 1234.5})), "١٬٢٣٤٫٥");
        assert_eq!(currency("ar-EG", json!({"value": -5, "currency": "EGP"})), "\u{61c}-EGP ٥٫٠٠");
        assert_eq!(date("ar-EG", "UTC", json!("2026-01-16"), "d/M/yyyy"), "١٦/١/٢٠٢٦");
        // A numbering system asked for in the tag (`-u-nu-arab`) changes the digits.
        let arab = number("de-DE-u-nu-arab", json!({"value": 12.5}));
        assert!(arab.starts_with("١٢") && arab.ends_with('٥') && !arab.bytes().any(|b| b.is_ascii_digit()), "{arab}");
        // A language without CLDR data formats with the root locale's conventions.
        assert_eq!(number("tlh", json!({"value": 1234.5})), "1,234.5");
    }

    #[test]
    fn instants_are_shown_in_the_time_zone() {
        let instant = json!("2026-03-01T10:00:00Z");
        assert_eq!(date("en-US", "UTC", instant.clone(), "yyyy-MM-dd HH:mm"), "2026-03-01 10:00");
        assert_eq!(date("de-DE", "Europe/Berlin", instant.clone(), "yyyy-MM-dd HH:mm"), "2026-03-01 11:00");
        assert_eq!(date("ko-KR", "Asia/Seoul", instant.clone(), "yyyy-MM-dd HH:mm"), "2026-03-01 19:00");
        // The same instant written with another offset gives the same text.
        for written in ["2026-03-01T15:30:00+05:30", "2026-03-01T05:00:00-05:00", "2026-03-01T11:00:00+0100"] {
            assert_eq!(date("de-DE", "Europe/Berlin", json!(written), "yyyy-MM-dd HH:mm"), "2026-03-01 11:00");
        }
        // Epoch milliseconds are an instant too.
        assert_eq!(date("ko-KR", "Asia/Seoul", json!(1772359200000u64), "yyyy-MM-dd HH:mm"), "2026-03-01 19:00");
        // Conversion may change the day, and so the names.
        assert_eq!(date("ko-KR", "Asia/Seoul", json!("2026-03-01T20:00:00Z"), "M월 d일 EEEE"), "3월 2일 월요일");
        assert_eq!(
            date("en-US", "America/Los_Angeles", json!("2026-03-01T02:00:00Z"), "EEEE MMM d, h:mm a"),
            "Saturday Feb 28, 6:00 PM"
        );
    }

    #[test]
    fn daylight_saving_time_boundaries_in_berlin() {
        let berlin = |v: &str| date("de-DE", "Europe/Berlin", json!(v), "dd.MM. HH:mm:ss");
        // Spring forward on 29 March 2026 at 01:00 UTC: 01:59:59 CET, then 03:00:00 CEST.
        assert_eq!(berlin("2026-03-29T00:59:59Z"), "29.03. 01:59:59");
        assert_eq!(berlin("2026-03-29T01:00:00Z"), "29.03. 03:00:00");
        // Fall back on 25 October 2026 at 01:00 UTC: two instants an hour apart show 02:30.
        assert_eq!(berlin("2026-10-25T00:30:00Z"), "25.10. 02:30:00");
        assert_eq!(berlin("2026-10-25T01:30:00Z"), "25.10. 02:30:00");
        // Seoul keeps +09:00 all year.
        assert_eq!(date("ko-KR", "Asia/Seoul", json!("2026-07-01T00:00:00Z"), "HH:mm"), "09:00");
    }

    /// `"ISO"`: the instant in UTC with milliseconds, whatever the surface's zone.
    #[test]
    fn iso_format_names_the_instant_in_utc() {
        for zone in ["UTC", "Europe/Berlin", "Asia/Seoul"] {
            assert_eq!(date("de-DE", zone, json!("2026-08-26T12:00:00.000Z"), "ISO"), "2026-08-26T12:00:00.000Z");
            assert_eq!(date("de-DE", zone, json!("2026-08-26T14:00:00.5+02:00"), "ISO"), "2026-08-26T12:00:00.500Z");
            // Without an offset, read in UTC; a calendar date is its midnight.
            assert_eq!(date("en-US", zone, json!("2026-08-26T09:30:00"), "ISO"), "2026-08-26T09:30:00.000Z");
            assert_eq!(date("en-US", zone, json!("2026-08-26"), "ISO"), "2026-08-26T00:00:00.000Z");
            assert_eq!(date("en-US", zone, json!(0), "ISO"), "1970-01-01T00:00:00.000Z");
        }
        assert_eq!(date("en-US", "UTC", Value::Null, "ISO"), "");
        // A time of day has no date; `iso` (any other case) is no format.
        let mut ev = TestEv::localized(json!({}), "en-US", "UTC");
        let call = parse_call(json!({"call": "formatDate", "args": {"value": "10:00", "format": "ISO"}}));
        assert!(evaluate(&call, &mut ev).is_err());
        let call = parse_call(json!({"call": "formatDate", "args": {"value": "2026-08-26", "format": "iso"}}));
        assert!(evaluate(&call, &mut ev).is_err());
    }

    #[test]
    fn a_date_without_a_time_stays_that_calendar_date() {
        for zone in ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Seoul", "Europe/Berlin"] {
            assert_eq!(date("en-US", zone, json!("2026-03-01"), "EEEE yyyy-MM-dd"), "Sunday 2026-03-01", "{zone}");
        }
        // A wall-clock date-time (no offset) is not an instant either: shown as written.
        assert_eq!(date("en-US", "Asia/Seoul", json!("2026-03-01T10:00:00"), "HH:mm"), "10:00");
        // Nor is a time of day, with or without an offset.
        assert_eq!(date("en-US", "Asia/Seoul", json!("10:00Z"), "HH:mm"), "10:00");
    }

    #[test]
    fn pluralize_exact_zero_and_two_win_over_the_category() {
        // D27: an exact 0 or 2 picks `zero` / `two` when the call gives one.
        assert_eq!(plural("en-US", json!(0)), "zero");
        assert_eq!(plural("en-US", json!(1)), "one");
        assert_eq!(plural("en-US", json!(2)), "two");
        assert_eq!(plural("en-US", json!(2.5)), "other");
        // Without them, CLDR's English rules (no `zero`, no `two`): 0 and 2 are `other`.
        let bare = |count: Value| {
            in_locale(
                "en-US",
                "UTC",
                json!({"call": "pluralize", "args": {"value": count, "one": "one", "other": "other"}}),
            )
        };
        assert_eq!(bare(json!(0)), "other");
        assert_eq!(bare(json!(2)), "other");
        // An empty `zero` is still the chosen form.
        let empty = json!({"call": "pluralize", "args": {"value": 0, "zero": "", "other": "default"}});
        assert_eq!(in_locale("en-US", "UTC", empty), "");
    }

    #[test]
    fn pluralize_follows_the_locale_rules() {
        let categories =
            |locale: &str, counts: &[Value]| counts.iter().map(|c| plural(locale, c.clone())).collect::<Vec<_>>();
        // (An exact 0 or 2 picks `zero` / `two`, given here: the other counts show the rules.)
        let counts = [json!(10), json!(1), json!(3), json!(5), json!(22), json!(25), json!(112), json!(1.5)];
        assert_eq!(categories("pl", &counts), ["many", "one", "few", "many", "few", "many", "many", "other"]);
        assert_eq!(categories("ru-RU", &counts), ["many", "one", "few", "many", "few", "many", "many", "other"]);
        let counts = [json!(0), json!(1), json!(2), json!(3), json!(11), json!(100), json!(102)];
        assert_eq!(categories("ar", &counts), ["zero", "one", "two", "few", "many", "other", "other"]);
        // Korean has one form; French counts 0 and 1 as `one`.
        assert_eq!(categories("ko-KR", &[json!(1), json!(3)]), ["other", "other"]);
        assert_eq!(categories("fr-FR", &[json!(0.5), json!(1), json!(3)]), ["one", "one", "other"]);
        // A missing category falls back to `other`.
        let mut ev = TestEv::localized(json!({}), "pl-PL", "UTC");
        let call = parse_call(json!({"call": "pluralize", "args": {"value": 3, "one": "plik", "other": "pliki?"}}));
        assert_eq!(evaluate(&call, &mut ev).unwrap(), json!("pliki?"));
    }
}

mod checks {
    use super::*;

    fn check(name: &str, args: Value) -> Result<Value, FunctionError> {
        run(json!({"call": name, "args": args}), json!({"s": "hello", "e": "", "n": 7, "arr": [], "t": "ab"}))
    }

    fn yes(name: &str, args: Value) -> bool {
        match check(name, args) {
            Ok(Value::Bool(b)) => b,
            other => panic!("{name}: {other:?}"),
        }
    }

    #[test]
    fn required() {
        for v in [json!("x"), json!("  "), json!(0), json!(false), json!({}), json!([1]), json!({"path": "/s"})] {
            assert!(yes("required", json!({"value": v})), "{v}");
        }
        for v in
            [Value::Null, json!(""), json!([]), json!({"path": "/e"}), json!({"path": "/arr"}), json!({"path": "/x"})]
        {
            assert!(!yes("required", json!({"value": v})), "{v}");
        }
        assert!(is_invalid(check("required", json!({}))));
    }

    #[test]
    fn regex_search_semantics() {
        assert!(yes("regex", json!({"value": "12345", "pattern": "^[0-9]{5}$"})));
        assert!(!yes("regex", json!({"value": "1234", "pattern": "^[0-9]{5}$"})));
        assert!(!yes("regex", json!({"value": "123456", "pattern": "^[0-9]{5}$"})));
        assert!(yes("regex", json!({"value": "abc", "pattern": "b"})));
        assert!(yes("regex", json!({"value": "+15551234567", "pattern": "^\\+?[0-9]{10,15}$"})));
        assert!(yes("regex", json!({"value": {"path": "/s"}, "pattern": "^h.*o$"})));
        assert!(yes("regex", json!({"value": null, "pattern": "^$"})));
        assert!(yes("regex", json!({"value": 12345, "pattern": "^\\d+$"})));
        assert!(yes("regex", json!({"value": "ÉCOLE", "pattern": "(?i)^école$"})));
    }

    #[test]
    fn regex_bad_patterns() {
        assert!(is_invalid(check("regex", json!({"value": "a", "pattern": "("}))));
        assert!(is_invalid(check("regex", json!({"value": "a", "pattern": "(a)\\1"}))));
        assert!(is_invalid(check("regex", json!({"value": "a", "pattern": "(?=a)"}))));
        assert!(is_invalid(check("regex", json!({"value": "a", "pattern": 5}))));
        assert!(is_invalid(check("regex", json!({"value": "a"}))));
        let nested = format!("{}a{}", "(".repeat(100), ")".repeat(100));
        assert!(is_invalid(check("regex", json!({"value": "a", "pattern": nested}))));
    }

    #[test]
    fn regex_size_limit() {
        let r = check("regex", json!({"value": "a", "pattern": "(\\w{1000}){1000}"}));
        match r {
            Err(FunctionError::InvalidArgs { reason, .. }) => assert!(reason.contains("size limit"), "{reason}"),
            other => panic!("expected a size error, got {other:?}"),
        }
    }

    #[test]
    fn regex_literal_pattern_is_prepared_once() {
        let call = parse_call(json!({"call": "regex", "args": {"value": {"path": "/s"}, "pattern": "^h"}}));
        let Prepared::Function(p) = &call.prepared else { panic!("not prepared") };
        assert!(matches!(p.kind, PreparedKind::Regex(Ok(_))));
        let bad = parse_call(json!({"call": "regex", "args": {"value": "x", "pattern": "["}}));
        let Prepared::Function(p) = &bad.prepared else { panic!("not prepared") };
        assert!(matches!(p.kind, PreparedKind::Regex(Err(_))));
        assert!(is_invalid(evaluate(&bad, &mut TestEv::new(json!({})))));
    }

    #[test]
    fn regex_dynamic_pattern() {
        let data = json!({"p": "^[a-z]+$", "v": "abc"});
        assert_eq!(
            ok(json!({"call": "regex", "args": {"value": {"path": "/v"}, "pattern": {"path": "/p"}}}), data),
            json!(true)
        );
    }

    #[test]
    fn length() {
        assert!(yes("length", json!({"value": "abc", "min": 3})));
        assert!(!yes("length", json!({"value": "ab", "min": 3})));
        assert!(yes("length", json!({"value": "ab", "max": 2})));
        assert!(!yes("length", json!({"value": "abc", "max": 2})));
        assert!(yes("length", json!({"value": "héllo", "min": 5, "max": 5})));
        assert!(yes("length", json!({"value": "👍👍", "max": 2})));
        assert!(yes("length", json!({"value": [1, 2, 3], "min": 3, "max": 3})));
        assert!(!yes("length", json!({"value": null, "min": 1})));
        assert!(yes("length", json!({"value": null, "max": 1})));
        assert!(!yes("length", json!({"value": {"path": "/x"}, "min": 1})));
        assert!(yes("length", json!({"value": {"path": "/t"}, "min": 2.0})));
        assert!(!yes("length", json!({"value": 12345, "max": 4})));
        assert!(yes("length", json!({"value": "abc"})));
        assert!(yes("length", json!({"value": "abc", "min": null})));
        assert!(is_invalid(check("length", json!({"value": "a", "min": "3"}))));
        assert!(is_invalid(check("length", json!({"value": "a", "max": -1}))));
        assert!(is_invalid(check("length", json!({"value": "a", "min": 1.5}))));
        assert!(is_invalid(check("length", json!({"value": {"a": 1}, "min": 1}))));
        assert!(is_invalid(check("length", json!({"min": 1}))));
    }

    #[test]
    fn numeric() {
        assert!(yes("numeric", json!({"value": 5, "min": 1, "max": 10})));
        assert!(yes("numeric", json!({"value": 1, "min": 1, "max": 10})));
        assert!(yes("numeric", json!({"value": 10, "min": 1, "max": 10})));
        assert!(!yes("numeric", json!({"value": 11, "min": 1, "max": 10})));
        assert!(!yes("numeric", json!({"value": 0.5, "min": 1})));
        assert!(yes("numeric", json!({"value": -3.5, "max": 0})));
        assert!(yes("numeric", json!({"value": "7", "min": 7})));
        assert!(yes("numeric", json!({"value": " 1e3 ", "max": 1000})));
        assert!(yes("numeric", json!({"value": {"path": "/n"}, "min": 0})));
        assert!(yes("numeric", json!({"value": 3})));
        assert!(!yes("numeric", json!({"value": "abc", "min": 0})));
        assert!(!yes("numeric", json!({"value": "", "min": 0})));
        assert!(!yes("numeric", json!({"value": "inf", "min": 0})));
        assert!(!yes("numeric", json!({"value": "12px", "min": 0})));
        assert!(!yes("numeric", json!({"value": null, "min": 0})));
        assert!(!yes("numeric", json!({"value": true, "min": 0})));
        assert!(!yes("numeric", json!({"value": [1], "min": 0})));
        assert!(is_invalid(check("numeric", json!({"value": 1, "min": "0"}))));
        assert!(is_invalid(check("numeric", json!({"value": 1, "max": "9"}))));
        assert!(is_invalid(check("numeric", json!({"min": 1}))));
    }

    #[test]
    fn email() {
        for v in [
            "a@b.co",
            "john.doe@example.com",
            "x+tag@sub.example.org",
            "o'brien@example.ie",
            "用户@例子.广告",
            "a@xn--p1ai.xn--p1ai",
            "UPPER@EXAMPLE.COM",
        ] {
            assert!(yes("email", json!({"value": v})), "{v} should be valid");
        }
        for v in [
            "",
            "plain",
            "@example.com",
            "a@",
            "a@b",
            "a@b.c",
            "a@@b.com",
            "a@b@c.com",
            "a b@c.com",
            "a@b .com",
            ".a@b.com",
            "a.@b.com",
            "a..b@c.com",
            "a@-b.com",
            "a@b-.com",
            "a@b..com",
            "a@.b.com",
            "a@b.com.",
            "a@b.c0m",
            "a@b.com\n",
            "a\u{0}@b.com",
            "\"q\"@b.com",
            "a@[127.0.0.1]",
        ] {
            assert!(!yes("email", json!({"value": v})), "{v:?} should be invalid");
        }
        let long_local = format!("{}@b.com", "a".repeat(65));
        assert!(!yes("email", json!({"value": long_local})));
        let long_total = format!("a@{}.com", "b".repeat(250));
        assert!(!yes("email", json!({"value": long_total})));
        assert!(!yes("email", json!({"value": null})));
        assert!(!yes("email", json!({"value": 5})));
        assert!(is_invalid(check("email", json!({}))));
    }
}

mod logic {
    use super::*;

    fn b(json: Value, data: Value) -> bool {
        ok(json, data).as_bool().expect("a boolean")
    }

    #[test]
    fn and_or_not() {
        let d = json!({"t": true, "f": false});
        assert!(b(json!({"call": "and", "args": {"values": [true, {"path": "/t"}]}}), d.clone()));
        assert!(!b(json!({"call": "and", "args": {"values": [true, {"path": "/f"}]}}), d.clone()));
        assert!(b(json!({"call": "or", "args": {"values": [false, {"path": "/t"}]}}), d.clone()));
        assert!(!b(json!({"call": "or", "args": {"values": [false, {"path": "/missing"}]}}), d.clone()));
        // D25: a literal list takes at least two operands.
        assert!(is_invalid(run(json!({"call": "and", "args": {"values": []}}), d.clone())));
        assert!(is_invalid(run(json!({"call": "or", "args": {"values": [true]}}), d.clone())));
        assert!(!b(json!({"call": "not", "args": {"value": true}}), d.clone()));
        assert!(b(json!({"call": "not", "args": {"value": {"path": "/f"}}}), d.clone()));
        assert!(b(json!({"call": "not", "args": {"value": null}}), d.clone()));
        assert!(b(json!({"call": "not", "args": {"value": "false"}}), d.clone()));
        assert!(!b(json!({"call": "not", "args": {"value": "TRUE"}}), d));
    }

    /// D26 truthiness: non-empty text, non-zero numbers, lists and objects are true; `""`, `0`,
    /// `null` and the text `"false"` are false.
    #[test]
    fn values_are_coerced() {
        let d = json!({});
        assert!(b(json!({"call": "and", "args": {"values": ["true", 1, "TRUE", "yes", [], {}]}}), d.clone()));
        assert!(!b(json!({"call": "and", "args": {"values": [true, ""]}}), d.clone()));
        assert!(!b(json!({"call": "or", "args": {"values": [0, "", null, "false", "FALSE"]}}), d.clone()));
        assert!(!b(json!({"call": "not", "args": {"value": "hello"}}), d.clone()));
        // An object is true before v1.0, whatever its `valid` says (v1.0: tests/it/v10.rs).
        assert!(!b(json!({"call": "not", "args": {"value": {"valid": false}}}), d));
    }

    #[test]
    fn spec_form_example() {
        let call = json!({"call": "and", "args": {"values": [
            {"path": "/formData/agree"},
            {"call": "or", "args": {"values": [
                {"call": "required", "args": {"value": {"path": "/formData/email"}}},
                {"call": "required", "args": {"value": {"path": "/formData/phone"}}}
            ]}}
        ]}});
        assert!(b(call.clone(), json!({"formData": {"agree": true, "phone": "123"}})));
        assert!(!b(call.clone(), json!({"formData": {"agree": true}})));
        assert!(!b(call, json!({"formData": {"agree": false, "email": "a@b.co"}})));
    }

    #[test]
    fn short_circuit_skips_later_reads() {
        let and = parse_call(json!({"call": "and", "args": {"values": [{"path": "/a"}, {"path": "/b"}]}}));
        let mut ev = TestEv::new(json!({"a": false, "b": true}));
        assert_eq!(evaluate(&and, &mut ev).unwrap(), json!(false));
        assert_eq!(ev.reads, vec!["/a"]);
        let mut ev = TestEv::new(json!({"a": true, "b": true}));
        assert_eq!(evaluate(&and, &mut ev).unwrap(), json!(true));
        assert_eq!(ev.reads, vec!["/a", "/b"]);

        let or = parse_call(json!({"call": "or", "args": {"values": [{"path": "/a"}, {"path": "/b"}]}}));
        let mut ev = TestEv::new(json!({"a": true}));
        assert_eq!(evaluate(&or, &mut ev).unwrap(), json!(true));
        assert_eq!(ev.reads, vec!["/a"]);
    }

    #[test]
    fn values_bound_to_data() {
        let d = json!({"flags": [true, true], "mixed": [true, false], "n": 3});
        assert!(b(json!({"call": "and", "args": {"values": {"path": "/flags"}}}), d.clone()));
        assert!(!b(json!({"call": "and", "args": {"values": {"path": "/mixed"}}}), d.clone()));
        assert!(b(json!({"call": "or", "args": {"values": {"path": "/mixed"}}}), d.clone()));
        assert!(b(json!({"call": "and", "args": {"values": {"path": "/none"}}}), d.clone()));
        assert!(is_invalid(run(json!({"call": "and", "args": {"values": {"path": "/n"}}}), d.clone())));
        assert!(is_invalid(run(json!({"call": "or", "args": {"values": true}}), d.clone())));
        assert!(is_invalid(run(json!({"call": "and", "args": {}}), d.clone())));
        assert!(is_invalid(run(json!({"call": "not", "args": {}}), d)));
    }

    #[test]
    fn unprepared_literal_array() {
        let call = Call {
            name: "or".into(),
            args: vec![("values".into(), Dynamic::Literal(json!([false, {"path": "/x"}])))],
            return_type: None,
            catalog_id: None,
            prepared: Prepared::None,
        };
        let mut ev = TestEv::new(json!({"x": true}));
        assert_eq!(evaluate(&call, &mut ev).unwrap(), json!(true));
        assert_eq!(ev.reads, vec!["/x"]);
    }
}

mod dispatch {
    use super::*;

    #[test]
    fn open_url_never_runs_at_bind_time() {
        let r = run(json!({"call": "openUrl", "args": {"url": "https://example.com"}}), json!({}));
        assert_eq!(r, Err(FunctionError::NotAtBindTime("openUrl".into())));
    }

    #[test]
    fn unknown_function() {
        assert_eq!(run(json!({"call": "nope", "args": {}}), json!({})), Err(FunctionError::Unknown("nope".into())));
        assert_eq!(run(json!({"call": "now"}), json!({})), Err(FunctionError::Unknown("now".into())));
    }

    #[test]
    fn error_messages_name_the_function() {
        let e = run(json!({"call": "length", "args": {"value": "a", "min": "x"}}), json!({})).unwrap_err();
        assert_eq!(e.to_string(), "length: `min` must be a number, got a string");
    }

    #[test]
    fn prepare_ignores_other_functions_and_dynamic_args() {
        assert_eq!(prepare("formatNumber", &[("value".into(), Dynamic::Literal(json!(1)))]), Prepared::None);
        assert_eq!(prepare("regex", &[("pattern".into(), Dynamic::Path("/p".into()))]), Prepared::None);
        assert_eq!(prepare("nope", &[]), Prepared::None);
    }

    #[test]
    fn evaluation_depth_resets_after_errors() {
        for _ in 0..100 {
            let _ = run(
                json!({"call": "formatString", "args": {"value": {"path": "/t"}}}),
                json!({"t": "${formatString(value: ${/t})}"}),
            );
        }
        assert_eq!(fmt("ok ${/a}", json!({"a": 1})), "ok 1");
    }
}

mod url_policy {
    use super::*;

    #[test]
    fn http_and_https_by_default() {
        let p = UrlPolicy::default();
        for url in [
            "https://example.com",
            "http://example.com/a?b=c#d",
            "HTTPS://EXAMPLE.COM",
            "https://user@host:8080/x",
            "https://[::1]:80/",
        ] {
            assert_eq!(p.check(url), Ok(url), "{url}");
        }
    }

    #[test]
    fn dangerous_schemes_are_refused() {
        let p = UrlPolicy::default();
        for url in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "file:///etc/passwd",
            "data:text/html,<script>",
            "vbscript:x",
            "intent://scan/#Intent;end",
            "myapp:open",
        ] {
            assert!(p.check(url).is_err(), "{url} should be refused");
        }
    }

    #[test]
    fn malformed_urls_are_refused() {
        let p = UrlPolicy::default();
        for url in [
            "",
            "example.com",
            "//example.com",
            "/relative",
            "1http://x",
            ":foo",
            "https:",
            "https:/x",
            "https:///path",
            "https://:80/",
            " https://example.com",
            "https://example.com ",
            "https://exa mple.com",
            "https://example.com/\n",
            "https://example.com/\t",
            "java\tscript:alert(1)",
            "https://\u{202E}moc.elgoog",
            "https://exa\u{200B}mple.com",
            "https://example.com/\u{7f}",
        ] {
            assert!(p.check(url).is_err(), "{url:?} should be refused");
        }
    }

    #[test]
    fn custom_schemes_are_configurable() {
        let p = UrlPolicy { allowed_schemes: vec!["https".into(), "MyApp".into(), "web+app".into(), "mailto".into()] };
        assert_eq!(p.check("myapp:open?id=1"), Ok("myapp:open?id=1"));
        assert_eq!(p.check("MYAPP://deep/link"), Ok("MYAPP://deep/link"));
        assert_eq!(p.check("web+app:x"), Ok("web+app:x"));
        assert_eq!(p.check("mailto:a@b.co"), Ok("mailto:a@b.co"));
        assert!(p.check("myapp:").is_err());
        assert!(p.check("http://example.com").is_err());
        let none = UrlPolicy { allowed_schemes: vec![] };
        assert!(none.check("https://example.com").is_err());
    }

    #[test]
    fn error_names_the_scheme() {
        let e = UrlPolicy::default().check("JavaScript:alert(1)").unwrap_err();
        assert!(e.contains("\"javascript\""), "{e}");
    }
}

/// `cargo test --release -p agentui-a2ui functions::tests::perf -- --ignored --nocapture`
#[test]
#[ignore]
fn perf() {
    let call = parse_call(json!({"call": "formatString", "args": {"value": "Price: ${price} USD"}}));
    let mut ev = TestEv::with_base(json!({"items": [{"price": 12.5}]}), "/items/0");
    let n = 200_000;
    let start = std::time::Instant::now();
    for _ in 0..n {
        ev.reads.clear();
        std::hint::black_box(evaluate(&call, &mut ev).unwrap());
    }
    let per = start.elapsed() / n;
    println!("prepared formatString: {per:?} per evaluation (test evaluator included)");

    /// An evaluator that costs next to nothing, to time the function alone.
    struct Fixed(Value, Localization);
    impl Evaluator for Fixed {
        fn read_path(&mut self, _: &str) -> Value {
            self.0.clone()
        }
        fn eval(&mut self, _: &Dynamic) -> Value {
            self.0.clone()
        }
        fn localization(&self) -> &Localization {
            &self.1
        }
    }
    let mut fixed = Fixed(json!(12.5), Localization::default());
    let start = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(evaluate(&call, &mut fixed).unwrap());
    }
    println!("prepared formatString: {:?} per evaluation (trivial evaluator)", start.elapsed() / n);
    let num = parse_call(json!({"call": "formatNumber", "args": {"value": 1234567.891, "decimals": 2}}));
    let start = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(evaluate(&num, &mut ev).unwrap());
    }
    println!("formatNumber: {:?} per evaluation", start.elapsed() / n);
    let date = parse_call(
        json!({"call": "formatDate", "args": {"value": "2026-01-16T14:30:00Z", "format": "EEEE, MMM d 'at' h:mm a"}}),
    );
    let start = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(evaluate(&date, &mut ev).unwrap());
    }
    println!("formatDate: {:?} per evaluation", start.elapsed() / n);
}
