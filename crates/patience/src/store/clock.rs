//! Dates as the store writes them: UTC, RFC 3339, to the second.

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::OffsetDateTime;

/// Now, in UTC, as RFC 3339 text to the second: `2025-03-01T18:04:05Z`.
pub fn now() -> String {
    rfc3339(OffsetDateTime::now_utc())
}

/// Now, in UTC, for a file name: `20250301T180405Z`.
pub(super) fn now_for_file_name() -> String {
    let format = format_description!("[year][month][day]T[hour][minute][second]Z");
    OffsetDateTime::now_utc()
        .format(&format)
        .unwrap_or_else(|_| "unknown-time".to_string())
}

/// A date-time as the store shows it to people, `2025-03-01 18:04` (UTC); text that is not RFC 3339 is shown as
/// it is.
pub fn for_people(rfc3339_text: &str) -> String {
    let format = format_description!("[year]-[month]-[day] [hour]:[minute]");
    OffsetDateTime::parse(rfc3339_text, &Rfc3339)
        .ok()
        .and_then(|t| t.to_offset(time::UtcOffset::UTC).format(&format).ok())
        .unwrap_or_else(|| rfc3339_text.to_string())
}

fn rfc3339(at: OffsetDateTime) -> String {
    let at = at.replace_nanosecond(0).unwrap_or(at);
    at.format(&Rfc3339)
        .unwrap_or_else(|_| "1970-01-01T00:00:00Z".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_rfc3339_utc_to_the_second() {
        let text = now();
        assert!(text.ends_with('Z') && text.len() == 20, "{text}");
        assert!(OffsetDateTime::parse(&text, &Rfc3339).is_ok());
        assert_eq!(for_people("2025-03-01T18:04:05Z"), "2025-03-01 18:04");
        assert_eq!(for_people("2025-03-01T20:04:05+02:00"), "2025-03-01 18:04");
        assert_eq!(for_people("yesterday"), "yesterday");
        assert_eq!(now_for_file_name().len(), 16);
    }
}
