//! The user's locale and time zone, which the formatting functions follow.
//!
//! A [`Localization`] is made once (per conversation, per command) from a BCP-47 language tag
//! and an IANA time zone name, both checked there: a bad value is a [`LocalizationError`] for
//! the caller, never a fallback that would silently format for someone else. It loads the
//! ICU4X formatters the functions need up front (number formatting with and without grouping,
//! cardinal plural rules) and date names on first use, then is shared by every surface of the
//! group (cloning is a reference count).
//!
//! Data: ICU4X's compiled CLDR data for every locale, linked into the library (see
//! docs/size.md, "ICU4X data"). A well-formed tag of a language CLDR lacks formats with
//! the root locale's conventions. Time zones come from the platform's IANA database (`jiff`);
//! a copy bundled at build time is read where the system has none only with the `bundled-tzdb`
//! feature (the CLI, tests), never in the phone library.

use std::fmt;
use std::sync::{Arc, LazyLock, OnceLock};

use icu_calendar::Gregorian;
use icu_datetime::pattern::{DayPeriodNameLength, FixedCalendarDateTimeNames, MonthNameLength, WeekdayNameLength};
use icu_decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use icu_decimal::DecimalFormatter;
use icu_locale_core::Locale;
use icu_plurals::PluralRules;
use jiff::tz::TimeZone;

/// The locale a group formats for when the app names none.
pub const DEFAULT_LOCALE: &str = "en-US";
/// The time zone a group converts instants to when the app names none.
pub const DEFAULT_TIME_ZONE: &str = "UTC";

/// Why a locale or time zone was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalizationError {
    #[error("invalid locale {value:?}: {reason} (expected a BCP-47 language tag such as \"de-DE\")")]
    InvalidLocale { value: String, reason: String },
    #[error("invalid time zone {value:?}: {reason} (expected an IANA time zone name such as \"Europe/Berlin\")")]
    InvalidTimeZone { value: String, reason: String },
    #[error("no formatting data for locale {locale:?}: {reason}")]
    MissingData { locale: String, reason: String },
}

/// The locale and time zone formatting follows, with their ICU4X formatters.
#[derive(Clone)]
pub struct Localization {
    inner: Arc<Inner>,
}

struct Inner {
    /// The tag as ICU4X normalised it (`EN-us` -> `en-US`).
    tag: String,
    locale: Locale,
    time_zone: TimeZone,
    time_zone_name: String,
    grouped: DecimalFormatter,
    plain: DecimalFormatter,
    plurals: PluralRules,
    /// Date names per field and width, loaded the first time a pattern uses them. A pattern may
    /// use several widths of one field (`MMM` and `MMMM`), which one ICU4X names object cannot
    /// hold, hence one object per width.
    names: [OnceLock<Result<FixedCalendarDateTimeNames<Gregorian>, String>>; DATE_NAMES.len()],
}

/// The text fields a date pattern may use, one per field, context and width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DateNames {
    Month(MonthNameLength),
    Weekday(WeekdayNameLength),
    DayPeriod(DayPeriodNameLength),
}

/// Every [`DateNames`] the date functions ask for, in slot order.
const DATE_NAMES: [DateNames; 13] = [
    DateNames::Month(MonthNameLength::Abbreviated),
    DateNames::Month(MonthNameLength::Wide),
    DateNames::Month(MonthNameLength::Narrow),
    DateNames::Month(MonthNameLength::StandaloneAbbreviated),
    DateNames::Month(MonthNameLength::StandaloneWide),
    DateNames::Month(MonthNameLength::StandaloneNarrow),
    DateNames::Weekday(WeekdayNameLength::Abbreviated),
    DateNames::Weekday(WeekdayNameLength::Wide),
    DateNames::Weekday(WeekdayNameLength::Narrow),
    DateNames::Weekday(WeekdayNameLength::Short),
    DateNames::DayPeriod(DayPeriodNameLength::Abbreviated),
    DateNames::DayPeriod(DayPeriodNameLength::Wide),
    DateNames::DayPeriod(DayPeriodNameLength::Narrow),
];

impl Localization {
    /// A localization for `locale` (a BCP-47 language tag such as `de-DE`, `ko-KR`,
    /// `sr-Latn-RS` or `de-DE-u-nu-arab`) and `time_zone` (an IANA name such as
    /// `Europe/Berlin`, or `UTC`).
    pub fn new(locale: &str, time_zone: &str) -> Result<Localization, LocalizationError> {
        let invalid_locale = |reason: String| LocalizationError::InvalidLocale { value: locale.to_owned(), reason };
        let parsed = Locale::try_from_str(locale.trim()).map_err(|e| invalid_locale(e.to_string()))?;
        if time_zone.trim().is_empty() {
            return Err(LocalizationError::InvalidTimeZone {
                value: time_zone.to_owned(),
                reason: "the name is empty".to_owned(),
            });
        }
        let zone = TimeZone::get(time_zone.trim())
            .map_err(|e| LocalizationError::InvalidTimeZone { value: time_zone.to_owned(), reason: e.to_string() })?;
        let tag = parsed.to_string();
        let missing = |reason: String| LocalizationError::MissingData { locale: tag.clone(), reason };
        let grouped = DecimalFormatter::try_new((&parsed).into(), DecimalFormatterOptions::default())
            .map_err(|e| missing(e.to_string()))?;
        let mut options = DecimalFormatterOptions::default();
        options.grouping_strategy = Some(GroupingStrategy::Never);
        let plain = DecimalFormatter::try_new((&parsed).into(), options).map_err(|e| missing(e.to_string()))?;
        let plurals = PluralRules::try_new_cardinal((&parsed).into()).map_err(|e| missing(e.to_string()))?;
        Ok(Localization {
            inner: Arc::new(Inner {
                tag,
                locale: parsed,
                // The database's spelling (`europe/berlin` is found as `Europe/Berlin`).
                time_zone_name: zone.iana_name().unwrap_or(time_zone.trim()).to_owned(),
                time_zone: zone,
                grouped,
                plain,
                plurals,
                names: std::array::from_fn(|_| OnceLock::new()),
            }),
        })
    }

    /// The locale as a normalised BCP-47 tag.
    pub fn locale(&self) -> &str {
        &self.inner.tag
    }

    /// The IANA name of the time zone.
    pub fn time_zone(&self) -> &str {
        &self.inner.time_zone_name
    }

    pub(crate) fn icu_locale(&self) -> &Locale {
        &self.inner.locale
    }

    pub(crate) fn zone(&self) -> &TimeZone {
        &self.inner.time_zone
    }

    /// The number formatter, with the locale's grouping or without any.
    pub(crate) fn decimal(&self, grouping: bool) -> &DecimalFormatter {
        if grouping {
            &self.inner.grouped
        } else {
            &self.inner.plain
        }
    }

    pub(crate) fn plural_rules(&self) -> &PluralRules {
        &self.inner.plurals
    }

    /// The locale's names for one text field of a date pattern, loaded on first use.
    pub(crate) fn date_names(&self, which: DateNames) -> Result<&FixedCalendarDateTimeNames<Gregorian>, String> {
        let Some(slot) = DATE_NAMES.iter().position(|n| *n == which) else {
            return Err(format!("{which:?} is not a width date patterns use"));
        };
        self.inner.names[slot]
            .get_or_init(|| {
                let mut names = FixedCalendarDateTimeNames::<Gregorian>::try_new((&self.inner.locale).into())
                    .map_err(|e| e.to_string())?;
                let loaded = match which {
                    DateNames::Month(width) => names.include_month_names(width).map(|_| ()),
                    DateNames::Weekday(width) => names.include_weekday_names(width).map(|_| ()),
                    DateNames::DayPeriod(width) => names.include_day_period_names(width).map(|_| ()),
                };
                loaded.map_err(|e| e.to_string())?;
                Ok(names)
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

static DEFAULT: LazyLock<Localization> = LazyLock::new(|| {
    // en-US and UTC are in the compiled data and in every time zone database (jiff knows UTC
    // without one), so this cannot fail.
    Localization::new(DEFAULT_LOCALE, DEFAULT_TIME_ZONE).expect("en-US and UTC are always available")
});

impl Default for Localization {
    /// en-US and UTC.
    fn default() -> Self {
        DEFAULT.clone()
    }
}

impl PartialEq for Localization {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || (self.inner.tag == other.inner.tag && self.inner.time_zone_name == other.inner.time_zone_name)
    }
}

impl fmt::Debug for Localization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Localization")
            .field("locale", &self.inner.tag)
            .field("time_zone", &self.inner.time_zone_name)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_normalised_and_zones_named() {
        let l = Localization::new("DE-de", "europe/berlin").unwrap();
        assert_eq!(l.locale(), "de-DE");
        assert_eq!(l.time_zone(), "Europe/Berlin");
        let d = Localization::default();
        assert_eq!((d.locale(), d.time_zone()), ("en-US", "UTC"));
    }

    #[test]
    fn invalid_locales_are_typed_errors() {
        for bad in ["", "   ", "not a locale", "en_US", "x", "en-US@calendar=gregorian", "12-34"] {
            let e = Localization::new(bad, "UTC").unwrap_err();
            assert!(matches!(e, LocalizationError::InvalidLocale { .. }), "{bad:?}: {e:?}");
        }
    }

    #[test]
    fn invalid_time_zones_are_typed_errors() {
        for bad in ["", "Mars/Olympus", "GMT+05:30", "Europe/", "../../etc/passwd"] {
            let e = Localization::new("en-US", bad).unwrap_err();
            assert!(matches!(e, LocalizationError::InvalidTimeZone { .. }), "{bad:?}: {e:?}");
        }
    }

    #[test]
    fn a_localization_is_shared_across_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Localization>();
    }
}
