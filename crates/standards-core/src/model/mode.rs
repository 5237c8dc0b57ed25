//! `.standards/MODE.md` (RF §3).

use crate::model::fields;
use crate::model::text::strip_bom;
use crate::model::vocab::ProjectMode;

pub const MODE_PATH: &str = ".standards/MODE.md";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}: {message}", path = MODE_PATH)]
pub struct ModeError {
    pub line: usize,
    pub message: String,
}

/// Reads `ProjectMode`: exactly one non-empty occurrence, `GREENFIELD` or `BROWNFIELD`.
pub fn parse(source: &str) -> Result<ProjectMode, ModeError> {
    let (text, _) = strip_bom(source);
    let found: Vec<_> = fields::scan(text)
        .into_iter()
        .filter(|f| f.name == "ProjectMode")
        .collect();
    match found.as_slice() {
        [] => Err(ModeError {
            line: 1,
            message: "the `ProjectMode` field is missing".into(),
        }),
        [one] => one.value.parse().map_err(|e| ModeError {
            line: fields::line_of(text, one.span.start),
            message: format!("`ProjectMode`: {e}"),
        }),
        [_, second, ..] => Err(ModeError {
            line: fields::line_of(text, second.pair.start),
            message: "`ProjectMode` appears more than once".into(),
        }),
    }
}

/// The exact MODE.md that install and reset write.
pub fn render(mode: ProjectMode) -> String {
    format!("# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `{mode}`\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for m in ProjectMode::ALL {
            assert_eq!(parse(&render(*m)).unwrap(), *m);
        }
    }

    #[test]
    fn rejects_missing_repeated_and_unknown() {
        assert!(parse("# Mode\n").unwrap_err().message.contains("missing"));
        let twice = "`ProjectMode`: `GREENFIELD`\n`ProjectMode`: `BROWNFIELD`\n";
        let e = parse(twice).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("more than once"));
        assert!(parse("`ProjectMode`: `HYBRID`")
            .unwrap_err()
            .message
            .contains("HYBRID"));
        assert_eq!(
            parse("\u{feff}`ProjectMode`: `BROWNFIELD`").unwrap(),
            ProjectMode::Brownfield
        );
    }
}
