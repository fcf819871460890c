//! The A2UI basic catalogs: the v0.9 one and the v1.0 one ("basic catalog v1"), 18 components
//! and 14 functions each, written from the facts of the specifications (names, property types,
//! enums, required lists), with our own descriptions. v1 differs in four properties: `Text`
//! variants are `caption` / `body` only (headings come through Markdown), and `Video.posterUrl`,
//! `TextField.placeholder` and `Slider.steps` are new.

use serde_json::{json, Map, Value};

use super::dsl::*;
use super::{ReturnType, BASIC_CATALOG_ID, BASIC_V1_CATALOG_ID};

/// Which basic catalog to describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edition {
    V0_9,
    V1,
}

/// Icon names every renderer of the basic catalog knows.
pub const ICON_NAMES: &[&str] = &[
    "accountCircle",
    "add",
    "arrowBack",
    "arrowForward",
    "attachFile",
    "calendarToday",
    "call",
    "camera",
    "check",
    "close",
    "delete",
    "download",
    "edit",
    "event",
    "error",
    "fastForward",
    "favorite",
    "favoriteOff",
    "folder",
    "help",
    "home",
    "info",
    "locationOn",
    "lock",
    "lockOpen",
    "mail",
    "menu",
    "moreVert",
    "moreHoriz",
    "notificationsOff",
    "notifications",
    "pause",
    "payment",
    "person",
    "phone",
    "photo",
    "play",
    "print",
    "refresh",
    "rewind",
    "search",
    "send",
    "settings",
    "share",
    "shoppingCart",
    "skipNext",
    "skipPrevious",
    "star",
    "starHalf",
    "starOff",
    "stop",
    "upload",
    "visibility",
    "visibilityOff",
    "volumeDown",
    "volumeMute",
    "volumeOff",
    "volumeUp",
    "warning",
];

const CHILDREN: &str = "The children: an array of component ids for a fixed set, or a template object that repeats \
                        one component for every element of a data model list. Children are always referenced by \
                        id, never nested inline.";

fn components(edition: Edition) -> Vec<(String, Value)> {
    let text_variants: &[&str] = match edition {
        Edition::V0_9 => &["h1", "h2", "h3", "h4", "h5", "caption", "body"],
        Edition::V1 => &["caption", "body"],
    };
    let v1 = edition == Edition::V1;
    vec![
        component("Text")
            .describe("Displays text. Supports simple Markdown (no HTML, images or links); prefer dedicated components for structure.")
            .prop("text", dyn_string(), "The text to show, literal or bound to the data model.")
            .required()
            .prop(
                "variant",
                string_enum(text_variants).default_value("body"),
                "Base text style: a heading level (v0.9 only; v1 headings are Markdown), a caption, or body text.",
            )
            .build(),
        component("Image")
            .describe("Displays an image loaded from a URL.")
            .prop("url", dyn_string(), "Where the image is loaded from.")
            .required()
            .prop("description", dyn_string(), "Alternative text describing the image for accessibility.")
            .prop(
                "fit",
                string_enum(&["contain", "cover", "fill", "none", "scaleDown"]).default_value("fill"),
                "How the image is scaled into its box (like CSS object-fit).",
            )
            .prop(
                "variant",
                string_enum(&["icon", "avatar", "smallFeature", "mediumFeature", "largeFeature", "header"])
                    .default_value("mediumFeature"),
                "Size and style hint, from a small icon or round avatar up to a full-width header.",
            )
            .build(),
        component("Icon")
            .describe("Displays an icon: a named system icon, a custom SVG path, or a name bound to the data model.")
            .prop(
                "name",
                one_of(vec![
                    string_enum(ICON_NAMES),
                    // v1 lets the SVG path come from the data model too.
                    object().prop("svgPath", if v1 { dyn_string() } else { string() }, "").required().closed().build(),
                    data_binding(),
                ]),
                "Which icon to show.",
            )
            .required()
            .build(),
        component("Video")
            .describe("Plays a video from a URL.")
            .prop("url", dyn_string(), "Where the video is loaded from.")
            .required()
            .prop_if(v1, "posterUrl", dyn_string(), "Image shown before the video plays.")
            .build(),
        component("AudioPlayer")
            .describe("Plays audio from a URL, with playback controls.")
            .prop("url", dyn_string(), "Where the audio is loaded from.")
            .required()
            .prop("description", dyn_string(), "A title or short summary of the audio.")
            .build(),
        component("Row")
            .describe("Lays its children out side by side, horizontally. Nest Columns inside for a grid.")
            .prop("children", child_list(), CHILDREN)
            .required()
            .prop(
                "justify",
                string_enum(&["center", "end", "spaceAround", "spaceBetween", "spaceEvenly", "start", "stretch"])
                    .default_value("start"),
                "Distribution along the horizontal main axis: pack at start/center/end, or spread out \
                 (spaceBetween puts the first and last child at the edges).",
            )
            .prop(
                "align",
                string_enum(&["start", "center", "end", "stretch"]).default_value("stretch"),
                "Vertical alignment of the children (the cross axis).",
            )
            .build(),
        component("Column")
            .describe("Stacks its children vertically. Nest Rows inside for a grid.")
            .prop("children", child_list(), CHILDREN)
            .required()
            .prop(
                "justify",
                string_enum(&["start", "center", "end", "spaceBetween", "spaceAround", "spaceEvenly", "stretch"])
                    .default_value("start"),
                "Distribution along the vertical main axis: pack at start/center/end, or spread out \
                 (spaceBetween pins e.g. a header to the top and a footer to the bottom).",
            )
            .prop(
                "align",
                string_enum(&["center", "end", "start", "stretch"]).default_value("stretch"),
                "Horizontal alignment of the children (the cross axis).",
            )
            .build(),
        component("List")
            .describe("A scrollable list of children, typically generated from a data model list with a template.")
            .prop("children", child_list(), CHILDREN)
            .required()
            .prop(
                "direction",
                string_enum(&["vertical", "horizontal"]).default_value("vertical"),
                "Scroll and layout direction.",
            )
            .prop(
                "align",
                string_enum(&["start", "center", "end", "stretch"]).default_value("stretch"),
                "Alignment of the items across the list direction.",
            )
            .build(),
        component("Card")
            .describe("A visually grouped container (a raised or outlined surface) around exactly one child.")
            .prop(
                "child",
                component_id(),
                "Id of the single child. To show several elements, put them in a Row or Column and give that \
                 container's id. Never nest the child inline.",
            )
            .required()
            .build(),
        component("Tabs")
            .describe("Shows one of several children at a time, selected by a row of titled tabs.")
            .prop(
                "tabs",
                array_of(
                    object()
                        .prop("title", dyn_string(), "Label of the tab.")
                        .required()
                        .prop("child", component_id(), "Id of the component shown when this tab is selected.")
                        .required()
                        .closed()
                        .build(),
                )
                .min_items(1),
                "The tabs, in order; at least one.",
            )
            .required()
            .build(),
        component("Modal")
            .describe("A dialog shown over the surface when its trigger component is activated.")
            .prop("trigger", component_id(), "Id of the component (e.g. a Button) that opens the dialog.")
            .required()
            .prop("content", component_id(), "Id of the component shown inside the dialog.")
            .required()
            .build(),
        component("Divider")
            .describe("A thin line separating content.")
            .prop(
                "axis",
                string_enum(&["horizontal", "vertical"]).default_value("horizontal"),
                "Orientation of the line.",
            )
            .build(),
        component("Button")
            .describe("A pressable button that performs an action: an event for the agent or a client-side function.")
            .prop(
                "child",
                component_id(),
                "Id of the button's content: usually a Text; an Icon only for icon-only buttons. Never nested inline.",
            )
            .required()
            .prop(
                "variant",
                string_enum(&["default", "primary", "borderless"]).default_value("default"),
                "Style hint: 'primary' for the main call to action, 'borderless' for a link-like button without \
                 border or background.",
            )
            .prop("action", action(), "What happens when the button is pressed.")
            .required()
            .checkable()
            .build(),
        component("TextField")
            .describe("A text input, bound to a data model path through `value`.")
            .prop("label", dyn_string(), "Label shown with the input.")
            .required()
            .prop("value", dyn_string(), "The text; bind it to a data model path to receive what the user types.")
            .prop_if(v1, "placeholder", dyn_string(), "Hint shown in the empty input.")
            .prop(
                "variant",
                string_enum(&["longText", "number", "shortText", "obscured"]).default_value("shortText"),
                "Kind of input: single line, multi-line, numeric, or obscured (passwords).",
            )
            .prop("validationRegexp", string(), "Regular expression the input must match to be valid.")
            .checkable()
            .build(),
        component("CheckBox")
            .describe("A labelled on/off checkbox.")
            .prop("label", dyn_string(), "Text next to the box.")
            .required()
            .prop("value", dyn_boolean(), "Whether the box is checked; bind it to the data model to track changes.")
            .required()
            .checkable()
            .build(),
        component("ChoicePicker")
            .describe("Lets the user pick one or several options from a list.")
            .prop("label", dyn_string(), "Label of the group of options.")
            .prop(
                "variant",
                string_enum(&["multipleSelection", "mutuallyExclusive"]).default_value("mutuallyExclusive"),
                "Whether one option ('mutuallyExclusive') or several ('multipleSelection') can be selected.",
            )
            .prop(
                "options",
                array_of(
                    object()
                        .prop("label", dyn_string(), "What the user sees.")
                        .required()
                        .prop("value", string(), "What is stored when the option is selected.")
                        .required()
                        .closed()
                        .build(),
                ),
                "The options offered.",
            )
            .required()
            .prop("value", dyn_string_list(), "Values of the selected options; bind it to a string array in the data model.")
            .required()
            .prop(
                "displayStyle",
                string_enum(&["checkbox", "chips"]).default_value("checkbox"),
                "Show the options as a checkbox list or as chips.",
            )
            .prop("filterable", boolean().default_value(false), "Show a search box that filters the options.")
            .checkable()
            .build(),
        component("Slider")
            .describe("Picks a number in a range by dragging a handle.")
            .prop("label", dyn_string(), "Label of the slider.")
            .prop("min", number().default_value(0), "Lowest selectable value.")
            .prop("max", number(), "Highest selectable value.")
            .required()
            .prop("value", dyn_number(), "The current value; bind it to the data model to track changes.")
            .required()
            .prop_if(
                v1,
                "steps",
                integer().with("minimum", 1),
                "Number of discrete divisions of the range; the handle snaps to them.",
            )
            .checkable()
            .build(),
        component("DateTimeInput")
            .describe("Picks a date, a time, or both; values are ISO 8601 strings.")
            .prop(
                "value",
                dyn_string(),
                "The chosen date/time as ISO 8601; bind it to the data model (use an empty string when unset).",
            )
            .required()
            .prop("enableDate", boolean().default_value(false), "Let the user choose a date.")
            .prop("enableTime", boolean().default_value(false), "Let the user choose a time.")
            .prop("min", iso_bound(), "Earliest allowed value (ISO 8601 date, time or date-time).")
            .prop("max", iso_bound(), "Latest allowed value (ISO 8601 date, time or date-time).")
            .prop("label", dyn_string(), "Label shown with the input.")
            .checkable()
            .build(),
    ]
}

/// A dynamic string which, when given literally, must be an ISO 8601 date, time or date-time.
fn iso_bound() -> Schema {
    let literal_is_iso = Schema::any().with("if", string()).with(
        "then",
        any_of(vec![Schema::any().format("date"), Schema::any().format("time"), Schema::any().format("date-time")]),
    );
    all_of(vec![dyn_string(), literal_is_iso])
}

fn functions() -> Vec<(String, Value)> {
    const DECIMALS: &str = "Digits after the decimal point; by default 0 or 2 depending on the locale.";
    const GROUPING: &str = "Whether to insert locale grouping separators (1,000 rather than 1000); default true.";
    let logical = |name: &str, description: &str| {
        function(name)
            .describe(description)
            .returns(ReturnType::Boolean)
            .arg("values", array_of(dyn_boolean()).min_items(2), "The booleans to combine (two or more).")
            .required()
            .build()
    };
    vec![
        function("required")
            .describe("True when the value is present: not null, undefined, an empty string or an empty list.")
            .returns(ReturnType::Boolean)
            .arg("value", Schema::any(), "The value to test.")
            .required()
            .build(),
        function("regex")
            .describe("True when the string matches a regular expression.")
            .returns(ReturnType::Boolean)
            .arg("value", dyn_string(), "The string to test.")
            .required()
            .arg("pattern", string(), "The regular expression.")
            .required()
            .build(),
        function("length")
            .describe("True when the string's length is within the bounds; give min, max or both.")
            .returns(ReturnType::Boolean)
            .arg("value", dyn_string(), "The string to measure.")
            .required()
            .arg("min", integer().minimum(0), "Shortest allowed length.")
            .arg("max", integer().minimum(0), "Longest allowed length.")
            .at_least_one_of(&["min", "max"])
            .build(),
        function("numeric")
            .describe("True when the number is within the bounds; give min, max or both.")
            .returns(ReturnType::Boolean)
            .arg("value", dyn_number(), "The number to test.")
            .required()
            .arg("min", number(), "Smallest allowed value.")
            .arg("max", number(), "Largest allowed value.")
            .at_least_one_of(&["min", "max"])
            .build(),
        function("email")
            .describe("True when the string is a well-formed email address.")
            .returns(ReturnType::Boolean)
            .arg("value", dyn_string(), "The string to test.")
            .required()
            .build(),
        function("formatString")
            .describe(
                "Builds a string by interpolating `${...}` expressions: data model paths (`${/abs/path}`, \
                 `${rel/path}`) and calls of catalog functions with named arguments \
                 (`${formatDate(value:${/date}, format:'MM-dd')}`). Write `\\${` for a literal `${`.",
            )
            .returns(ReturnType::String)
            .arg("value", dyn_string(), "The template.")
            .required()
            .build(),
        function("formatNumber")
            .describe("Formats a number with a chosen precision and optional grouping separators.")
            .returns(ReturnType::String)
            .arg("value", dyn_number(), "The number.")
            .required()
            .arg("decimals", dyn_number(), DECIMALS)
            .arg("grouping", dyn_boolean(), GROUPING)
            .build(),
        function("formatCurrency")
            .describe("Formats an amount of money in a currency, for the user's locale.")
            .returns(ReturnType::String)
            .arg("value", dyn_number(), "The amount.")
            .required()
            .arg("currency", dyn_string(), "ISO 4217 currency code such as 'EUR' or 'USD'.")
            .required()
            .arg("decimals", dyn_number(), DECIMALS)
            .arg("grouping", dyn_boolean(), GROUPING)
            .build(),
        function("formatDate")
            .describe("Formats a date/time value with a Unicode TR35 pattern.")
            .returns(ReturnType::String)
            .arg("value", dyn_value(), "The date/time (ISO 8601 string or timestamp).")
            .required()
            .arg(
                "format",
                dyn_string(),
                "TR35 pattern. Tokens: yy/yyyy year; M/MM/MMM/MMMM month (1, 01, Jan, January); d/dd day; \
                 E/EEEE weekday (Tue, Tuesday); h/hh 12-hour with a for AM/PM; H/HH 24-hour; mm minutes; \
                 ss seconds. E.g. 'MMM dd, yyyy' gives 'Jan 16, 2026'; 'h:mm a' gives '2:30 PM'.",
            )
            .required()
            .build(),
        function("pluralize")
            .describe(
                "Picks the string for the CLDR plural category (zero, one, two, few, many, other) of a count in the \
                 user's locale. 'other' is the mandatory fallback; English needs only 'one' and 'other'.",
            )
            .returns(ReturnType::String)
            .arg("value", dyn_number(), "The count that selects the category.")
            .required()
            .arg("zero", dyn_string(), "Text for the 'zero' category.")
            .arg("one", dyn_string(), "Text for the 'one' category (singular in English).")
            .arg("two", dyn_string(), "Text for the 'two' category (dual, e.g. Arabic or Welsh).")
            .arg("few", dyn_string(), "Text for the 'few' category (e.g. small counts in Slavic languages).")
            .arg("many", dyn_string(), "Text for the 'many' category.")
            .arg("other", dyn_string(), "Text for every other count; the fallback.")
            .required()
            .build(),
        function("openUrl")
            .describe("Opens a URL in the browser or the app registered for it. Returns nothing.")
            .returns(ReturnType::Void)
            .arg("url", string().format("uri"), "The URL to open.")
            .required()
            .build(),
        logical("and", "True when every value is true (logical AND)."),
        logical("or", "True when at least one value is true (logical OR)."),
        function("not")
            .describe("The opposite of a boolean (logical NOT).")
            .returns(ReturnType::Boolean)
            .arg("value", dyn_boolean(), "The boolean to negate.")
            .required()
            .build(),
    ]
}

fn theme() -> Schema {
    object()
        .describe("Theme parameters a surface may set in createSurface.")
        .prop(
            "primaryColor",
            string().pattern("^#[0-9a-fA-F]{6}$"),
            "Brand color for highlights such as primary buttons and active borders, as #RRGGBB (e.g. '#00BFFF'). \
             Renderers may derive shades from it.",
        )
        .prop("iconUrl", string().format("uri"), "URL of an image identifying the agent or tool behind the surface.")
        .prop("agentDisplayName", string(), "Name of the agent or tool, shown next to the surface.")
        .with("additionalProperties", true)
        .build()
}

fn catalog_component_common() -> Schema {
    object()
        .prop(
            "weight",
            number(),
            "Share of the free space this component takes inside a Row or Column (like CSS flex-grow). Only for \
             direct children of a Row or Column.",
        )
        .build()
}

/// The basic catalog in the A2UI catalog JSON format (without the generated `anyComponent` and
/// `anyFunction`, which the loader adds for every catalog).
pub fn document() -> Value {
    document_of(Edition::V0_9)
}

/// The basic catalog v1 (A2UI v1.0), in the same form as [`document`].
pub fn document_v1() -> Value {
    document_of(Edition::V1)
}

fn document_of(edition: Edition) -> Value {
    let components: Map<String, Value> = components(edition).into_iter().collect();
    let functions: Map<String, Value> = functions().into_iter().collect();
    let (id, protocol, description) = match edition {
        Edition::V0_9 => (
            BASIC_CATALOG_ID,
            "0.9",
            "The A2UI v0.9 basic catalog: text, media, layout and input components, plus validation, \
             formatting and logic functions.",
        ),
        Edition::V1 => (
            BASIC_V1_CATALOG_ID,
            "1.0",
            "The A2UI basic catalog v1 (protocol v1.0): text, media, layout and input components, plus \
             validation, formatting and logic functions.",
        ),
    };
    let mut document = json!({
        "$schema": DIALECT,
        "$id": id,
        "title": "A2UI basic catalog",
        "description": description,
        "catalogId": id,
        "components": components,
        "functions": functions,
        "$defs": {
            "CatalogComponentCommon": catalog_component_common(),
            "theme": theme(),
        },
    });
    // v0.9 catalogs had no protocolVersion (it defaults to "0.9"); say it only where it is new.
    if edition == Edition::V1 {
        document["protocolVersion"] = Value::from(protocol);
        // v1 says so: openUrl runs only from a user gesture (the engine never ran it otherwise).
        document["functions"]["openUrl"]["requiresUserActivation"] = Value::Bool(true);
    }
    document
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_all_components_and_functions() {
        let doc = document();
        let components = doc["components"].as_object().unwrap();
        assert_eq!(components.len(), 18);
        let functions = doc["functions"].as_object().unwrap();
        assert_eq!(functions.len(), 14);
        for (name, schema) in components {
            assert!(schema["description"].as_str().is_some_and(|d| !d.is_empty()), "{name} has no description");
        }
        for (name, schema) in functions {
            assert!(schema["description"].as_str().is_some_and(|d| !d.is_empty()), "{name} has no description");
            assert_eq!(schema["properties"]["call"]["const"], name.as_str());
        }
        assert_eq!(ICON_NAMES.len(), 59);
    }

    #[test]
    fn every_property_is_described() {
        let doc = document();
        for (name, schema) in doc["components"].as_object().unwrap() {
            let own = schema["allOf"].as_array().unwrap().last().unwrap();
            for (prop, prop_schema) in own["properties"].as_object().unwrap() {
                if prop != "component" {
                    assert!(prop_schema.get("description").is_some(), "{name}.{prop} has no description");
                }
            }
        }
        for (name, schema) in doc["functions"].as_object().unwrap() {
            for (arg, arg_schema) in schema["properties"]["args"]["properties"].as_object().unwrap() {
                assert!(arg_schema.get("description").is_some(), "{name}({arg}) has no description");
            }
        }
    }
}
