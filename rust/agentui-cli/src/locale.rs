//! `--locale` and `--time-zone`: what the A2UI formatting functions follow on the commands that
//! render surfaces. The host's own settings are not used: en-US and UTC unless given, so a
//! command prints the same thing on every machine.

use agentui_a2ui::locale::{DEFAULT_LOCALE, DEFAULT_TIME_ZONE};
use agentui_a2ui::Localization;

#[derive(Debug, Clone, clap::Args)]
pub struct LocaleArgs {
    /// The user's locale, a BCP-47 language tag (de-DE, ko-KR, sr-Latn-RS).
    #[arg(long, value_name = "TAG", default_value = DEFAULT_LOCALE)]
    pub locale: String,
    /// The user's IANA time zone (Europe/Berlin); instants are shown in it.
    #[arg(long = "time-zone", value_name = "ZONE", default_value = DEFAULT_TIME_ZONE)]
    pub time_zone: String,
}

impl LocaleArgs {
    /// The localization these flags name; a bad value is a usage error.
    pub fn localization(&self) -> Result<Localization, String> {
        Localization::new(&self.locale, &self.time_zone).map_err(|e| e.to_string())
    }
}
