//! The provenance block that opens every cycle record (RF §5, check-rules §1.5).

use crate::model::cycle_id;
use crate::model::text::strip_bom;
use crate::model::vocab::{ArtifactType, ReviewKind};

/// A valid block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    pub artifact: ArtifactType,
    pub cycle: String,
    pub review_kind: Option<ReviewKind>,
}

/// What the start of a file says about ownership.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Marking {
    /// No block: an ordinary (unmarked) file.
    Unmarked,
    Valid(Provenance),
    /// Starts like a block but is not one; the reason says why. A collision for every type.
    Malformed(String),
}

impl Marking {
    pub fn valid(&self) -> Option<&Provenance> {
        match self {
            Marking::Valid(p) => Some(p),
            _ => None,
        }
    }
    pub fn has_block(&self) -> bool {
        !matches!(self, Marking::Unmarked)
    }
}

/// Whether the text (after one BOM) opens with `<!--`, optional whitespace,
/// `STANDARDS`, then whitespace or the end.
pub fn opens_block(text: &str) -> bool {
    let (text, _) = strip_bom(text);
    let Some(rest) = text.strip_prefix("<!--") else {
        return false;
    };
    let rest = rest.trim_start_matches(crate::model::fields::is_js_whitespace);
    match rest.strip_prefix("STANDARDS") {
        Some(after) => {
            after.is_empty() || after.starts_with(crate::model::fields::is_js_whitespace)
        }
        None => false,
    }
}

/// Whether the start `prefix` of a longer file leaves [`opens_block`]
/// undecided: it is `<!--` followed only by whitespace or the beginning of
/// `STANDARDS`, so more bytes are needed to tell.
pub fn opening_undecided(prefix: &str) -> bool {
    let (text, _) = strip_bom(prefix);
    if "<!--".starts_with(text) {
        return true;
    }
    let Some(rest) = text.strip_prefix("<!--") else {
        return false;
    };
    let rest = rest.trim_start_matches(crate::model::fields::is_js_whitespace);
    "STANDARDS".starts_with(rest) && rest.len() < "STANDARDS".len()
}

/// Parses the provenance block at the start of `text`.
pub fn parse(text: &str) -> Marking {
    if !opens_block(text) {
        return Marking::Unmarked;
    }
    let (text, _) = strip_bom(text);
    let Some(close) = text.find("-->") else {
        return Marking::Malformed("the provenance block is never closed with `-->`".into());
    };
    let inner = &text[..close];
    let mut artifact: Option<String> = None;
    let mut cycle: Option<String> = None;
    let mut kind: Option<String> = None;
    // The opener line is ignored whole; text before `-->` on the last line counts.
    for line in inner.split('\n').skip(1) {
        let line = line.trim_matches(crate::model::fields::is_js_whitespace);
        if line.is_empty() {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            return Marking::Malformed(format!("unexpected line `{line}` in the provenance block"));
        };
        let value = value.trim_start_matches(crate::model::fields::is_js_whitespace);
        if value.is_empty() || value.contains(crate::model::fields::is_js_whitespace) {
            return Marking::Malformed(format!("unexpected line `{line}` in the provenance block"));
        }
        let slot = match key {
            "Artifact" => &mut artifact,
            "Cycle" => &mut cycle,
            "ReviewKind" => &mut kind,
            _ => {
                return Marking::Malformed(format!(
                    "unexpected line `{line}` in the provenance block"
                ))
            }
        };
        if slot.is_some() {
            return Marking::Malformed(format!(
                "`{key}` appears more than once in the provenance block"
            ));
        }
        *slot = Some(value.to_string());
    }
    let artifact = match artifact.as_deref().map(str::parse::<ArtifactType>) {
        None => return Marking::Malformed("the provenance block has no `Artifact` line".into()),
        Some(Err(e)) => return Marking::Malformed(format!("provenance `Artifact`: {e}")),
        Some(Ok(a)) => a,
    };
    let cycle = match cycle {
        None => return Marking::Malformed("the provenance block has no `Cycle` line".into()),
        Some(c) if !cycle_id::is_lenient(&c) => {
            return Marking::Malformed(format!("provenance `Cycle` `{c}` is not a valid cycle ID"))
        }
        Some(c) => c,
    };
    let review_kind = match (artifact, kind) {
        (ArtifactType::Review, None) => return Marking::Malformed(
            "a REVIEW provenance block needs `ReviewKind: IMPLEMENTATION` or `FINAL_DELIVERABLE`"
                .into(),
        ),
        (ArtifactType::Review, Some(k)) => match k.parse::<ReviewKind>() {
            Ok(k) => Some(k),
            Err(e) => return Marking::Malformed(format!("provenance `ReviewKind`: {e}")),
        },
        (other, Some(_)) => {
            return Marking::Malformed(format!(
                "a {other} provenance block must not have a `ReviewKind` line"
            ))
        }
        (_, None) => None,
    };
    Marking::Valid(Provenance {
        artifact,
        cycle,
        review_kind,
    })
}

/// The canonical block the tools write, followed by one newline.
pub fn render(p: &Provenance) -> String {
    let mut out = format!(
        "<!-- STANDARDS\nArtifact: {}\nCycle: {}\n",
        p.artifact, p.cycle
    );
    if let Some(kind) = p.review_kind {
        out.push_str(&format!("ReviewKind: {kind}\n"));
    }
    out.push_str("-->\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(text: &str) -> String {
        match parse(text) {
            Marking::Malformed(r) => r,
            other => panic!("expected malformed, got {other:?}"),
        }
    }

    #[test]
    fn canonical_blocks_round_trip() {
        let p = Provenance {
            artifact: ArtifactType::Review,
            cycle: "c-1".into(),
            review_kind: Some(ReviewKind::FinalDeliverable),
        };
        let text = render(&p);
        assert_eq!(
            text,
            "<!-- STANDARDS\nArtifact: REVIEW\nCycle: c-1\nReviewKind: FINAL_DELIVERABLE\n-->\n"
        );
        assert_eq!(parse(&text), Marking::Valid(p));
    }

    #[test]
    fn lenient_reading() {
        let text =
            "\u{feff}<!--  STANDARDS extra words\n  Artifact:SCOPE \n\nCycle: x.y -->\n# Title";
        assert_eq!(
            parse(text),
            Marking::Valid(Provenance {
                artifact: ArtifactType::Scope,
                cycle: "x.y".into(),
                review_kind: None
            })
        );
    }

    #[test]
    fn unmarked_files() {
        assert_eq!(parse("# Notes"), Marking::Unmarked);
        assert_eq!(parse("<!-- STANDARDSX -->"), Marking::Unmarked);
        assert_eq!(parse("<!-- other -->"), Marking::Unmarked);
        assert!(opens_block("<!--STANDARDS"));
    }

    #[test]
    fn malformed_blocks_say_why() {
        assert!(reason("<!-- STANDARDS\nArtifact: SCOPE\nCycle: c\n").contains("never closed"));
        assert!(reason("<!-- STANDARDS\nArtifact: PLAN\nCycle: c\n-->").contains("PLAN"));
        assert!(reason("<!-- STANDARDS\nArtifact: SCOPE\nCycle: -bad\n-->")
            .contains("not a valid cycle ID"));
        assert!(reason("<!-- STANDARDS\nArtifact: REVIEW\nCycle: c\n-->").contains("ReviewKind"));
        assert!(reason(
            "<!-- STANDARDS\nArtifact: SCOPE\nCycle: c\nReviewKind: IMPLEMENTATION\n-->"
        )
        .contains("must not"));
        assert!(
            reason("<!-- STANDARDS\nArtifact: SCOPE\nArtifact: SCOPE\nCycle: c\n-->")
                .contains("more than once")
        );
        assert!(
            reason("<!-- STANDARDS\nArtifact: SCOPE\nCycle: c\nOwner: me\n-->")
                .contains("unexpected line")
        );
        assert!(reason("<!-- STANDARDS\nCycle: c\n-->").contains("no `Artifact`"));
    }
}
