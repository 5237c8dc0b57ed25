//! Cycle identifiers (RF §10): slugs, the generated form and the lenient form.

use unicode_normalization::UnicodeNormalization;

const SLUG_MAX: usize = 40;

/// The slug of a request (RF §10.1).
pub fn slug(request: &str) -> String {
    let folded: String = request
        .nfkd()
        .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
        .collect::<String>()
        .to_lowercase();
    let words: Vec<&str> = folded
        .split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = String::new();
    for word in &words {
        let extra = if out.is_empty() {
            word.len()
        } else {
            word.len() + 1
        };
        if out.len() + extra > SLUG_MAX {
            break;
        }
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(word);
    }
    if out.is_empty() {
        match words.first() {
            Some(first) => first[..SLUG_MAX.min(first.len())].to_string(),
            None => "cycle".to_string(),
        }
    } else {
        out
    }
}

/// `<slug>-<YYYYMMDDTHHMMSSZ>-<8 hex>` from its parts (RF §10.2).
pub fn compose(slug: &str, utc: chrono::DateTime<chrono::Utc>, random: [u8; 4]) -> String {
    let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
    format!("{slug}-{}-{hex}", utc.format("%Y%m%dT%H%M%SZ"))
}

/// How many candidates `cycle new` tries before it gives up (RT §2.2 step 8).
pub const ATTEMPTS: usize = 5;

/// Chooses a new cycle ID for `slug` (RT §2.2 steps 8 and 9, RF §10.4).
///
/// Builds up to [`ATTEMPTS`] candidates from the clock value `now` and fresh
/// random bytes drawn from `random`, skipping any candidate that is not in the
/// generated form or that `is_used` reports as taken. Returns the first free
/// candidate, `Ok(None)` when all of them were taken, or the first error of
/// `random`. Time and randomness are injected so the choice is testable.
pub fn generate<E>(
    slug: &str,
    now: chrono::DateTime<chrono::Utc>,
    mut random: impl FnMut() -> Result<[u8; 4], E>,
    mut is_used: impl FnMut(&str) -> bool,
) -> Result<Option<String>, E> {
    for _ in 0..ATTEMPTS {
        let candidate = compose(slug, now, random()?);
        if is_generated(&candidate) && !is_used(&candidate) {
            return Ok(Some(candidate));
        }
    }
    Ok(None)
}

/// The generated form required of `Active Work.Id` (RF §10.3).
pub fn is_generated(id: &str) -> bool {
    // Suffix: -YYYYMMDDTHHMMSSZ-xxxxxxxx (8+1+6+1 digits/letters, then 8 hex) = 27 bytes.
    const TAIL: usize = 1 + 8 + 1 + 6 + 1 + 1 + 8;
    if id.len() <= TAIL || !id.is_ascii() {
        return false;
    }
    let (slug, tail) = id.split_at(id.len() - TAIL);
    let t = tail.as_bytes();
    let digits = |r: std::ops::Range<usize>| t[r].iter().all(u8::is_ascii_digit);
    let tail_ok = t[0] == b'-'
        && digits(1..9)
        && t[9] == b'T'
        && digits(10..16)
        && t[16] == b'Z'
        && t[17] == b'-'
        && t[18..]
            .iter()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b));
    tail_ok
        && !slug.is_empty()
        && slug.split('-').all(|g| {
            !g.is_empty()
                && g.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The lenient form accepted in provenance blocks (RF §10.3).
pub fn is_lenient(id: &str) -> bool {
    let mut bytes = id.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphanumeric())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn slugs_follow_the_protocol_examples() {
        assert_eq!(
            slug("Add user search by name & e-mail (v2)!"),
            "add-user-search-by-name-e-mail-v2"
        );
        assert_eq!(slug("Ünïcode — café search"), "unicode-cafe-search");
        assert_eq!(slug("!!!"), "cycle");
        assert_eq!(slug(""), "cycle");
    }

    #[test]
    fn slugs_stop_at_forty_characters_on_whole_words() {
        let s = slug(&"word ".repeat(30));
        assert!(s.len() <= 40);
        assert_eq!(s, ["word"; 8].join("-"));
        // A later, shorter word is not tried once one does not fit.
        assert_eq!(
            slug(&format!("{} abcdefghij x", "a".repeat(35))),
            "a".repeat(35)
        );
        // A first word over the limit is cut.
        assert_eq!(slug(&"x".repeat(50)), "x".repeat(40));
    }

    #[test]
    fn composed_ids_are_generated_form() {
        let t = chrono::Utc
            .with_ymd_and_hms(2026, 9, 27, 19, 1, 46)
            .unwrap();
        let id = compose("add-user-search", t, [0x7b, 0xef, 0x0f, 0x04]);
        assert_eq!(id, "add-user-search-20260927T190146Z-7bef0f04");
        assert!(is_generated(&id));
    }

    fn fixed_time() -> chrono::DateTime<chrono::Utc> {
        chrono::Utc
            .with_ymd_and_hms(2026, 9, 27, 19, 1, 46)
            .unwrap()
    }

    #[test]
    fn generate_returns_the_first_unused_candidate() {
        let mut draws = [[0, 0, 0, 1], [0, 0, 0, 2], [0, 0, 0, 3]].into_iter();
        let mut asked = Vec::new();
        let id = generate::<()>(
            "search",
            fixed_time(),
            || Ok(draws.next().unwrap()),
            |c| {
                asked.push(c.to_string());
                c.ends_with("00000001")
            },
        )
        .unwrap();
        assert_eq!(id.as_deref(), Some("search-20260927T190146Z-00000002"));
        assert_eq!(asked.len(), 2);
    }

    #[test]
    fn generate_gives_up_after_five_used_candidates() {
        let mut draws = 0;
        let mut checks = 0;
        let id = generate::<()>(
            "search",
            fixed_time(),
            || {
                draws += 1;
                Ok([draws, 0, 0, 0])
            },
            |_| {
                checks += 1;
                true
            },
        )
        .unwrap();
        assert_eq!(id, None);
        assert_eq!((draws, checks), (5, 5));
    }

    #[test]
    fn generate_skips_candidates_outside_the_generated_form() {
        // A slug that cannot form a generated ID (it never comes from `slug`)
        // is never offered, and `is_used` is not consulted for it.
        let id = generate::<()>(
            "Bad Slug",
            fixed_time(),
            || Ok([1, 2, 3, 4]),
            |_| panic!("not consulted"),
        )
        .unwrap();
        assert_eq!(id, None);
    }

    #[test]
    fn generate_passes_on_randomness_failures() {
        let err = generate("search", fixed_time(), || Err("no entropy"), |_| false).unwrap_err();
        assert_eq!(err, "no entropy");
    }

    #[test]
    fn every_slug_forms_a_generated_id() {
        for request in [
            "Add user search",
            "!!!",
            "Ünïcode — café search",
            &"x".repeat(10_000),
            "2026 plan",
        ] {
            let id = compose(&slug(request), fixed_time(), [0xab, 0xcd, 0xef, 0x01]);
            assert!(is_generated(&id), "{id}");
        }
    }

    #[test]
    fn generated_form_is_strict() {
        assert!(!is_generated("20260927T190146Z-7bef0f04"), "slug required");
        assert!(!is_generated("Add-20260927T190146Z-7bef0f04"));
        assert!(!is_generated("a--b-20260927T190146Z-7bef0f04"));
        assert!(!is_generated("a-20260927T190146Z-7BEF0F04"));
        assert!(!is_generated("a-20260927T190146Z-7bef0f0"));
        assert!(is_lenient("C-002") && is_lenient("a.b_c"));
        assert!(!is_lenient("-a") && !is_lenient("") && !is_lenient("a b"));
    }
}
