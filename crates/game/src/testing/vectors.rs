//! The shared test vectors (`tests/data/vectors/`, format in its README): one reader for every
//! engine and the referee, and the check that runs a file's blocks through an engine.
//!
//! The reader takes the text, so the caller decides where it comes from (`include_str!`).

use crate::{Game, Variant, perft};

/// One block of a vector file: a position and what must hold there, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The line of the block's `game` line, for messages.
    pub line: usize,
    pub game: String,
    pub variant: String,
    /// `start` for the variant's start, otherwise position notation.
    pub position: String,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `perft DEPTH COUNT`: COUNT move sequences of exactly DEPTH moves.
    Perft { depth: u32, count: u64 },
    /// `legal A B …`: exactly these moves, in ascending byte order.
    Legal(Vec<String>),
    /// `play A B …`: these moves, played in order.
    Play(Vec<String>),
    /// `position-after P`: the position the preceding steps reached.
    PositionAfter(String),
    /// `status S`: the referee's `status` reply (`ongoing a`, `over won 2`).
    Status(String),
}

impl Block {
    /// `game variant position`, to name the block in messages.
    pub fn title(&self) -> String {
        format!("{} {} {}", self.game, self.variant, self.position)
    }

    pub fn is_start(&self) -> bool {
        self.position == "start"
    }
}

/// Reads a vector file: blank lines and `#` comments are ignored, and each `game` line opens a
/// block whose `variant` and `position` come before its steps.
pub fn parse(text: &str) -> Result<Vec<Block>, String> {
    let mut blocks: Vec<Block> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let n = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let words = || rest.split_whitespace().map(str::to_string).collect();
        if key == "game" {
            blocks.push(Block {
                line: n,
                game: rest.to_string(),
                variant: String::new(),
                position: String::new(),
                steps: Vec::new(),
            });
            continue;
        }
        let block = blocks
            .last_mut()
            .ok_or_else(|| format!("line {n}: {key:?} before any game line"))?;
        let header = key == "variant" || key == "position";
        if header && !block.steps.is_empty() {
            return Err(format!("line {n}: {key} after the block's checks"));
        }
        if !header && block.position.is_empty() {
            return Err(format!("line {n}: {key} before the block's position"));
        }
        let step = match key {
            "variant" => {
                block.variant = rest.to_string();
                continue;
            }
            "position" if block.variant.is_empty() => {
                return Err(format!("line {n}: position before variant"));
            }
            "position" => {
                block.position = rest.to_string();
                continue;
            }
            "perft" => {
                let parsed = rest
                    .split_once(' ')
                    .and_then(|(d, c)| Some((d.parse().ok()?, c.trim().parse().ok()?)));
                let (depth, count) =
                    parsed.ok_or_else(|| format!("line {n}: expected perft DEPTH COUNT"))?;
                Step::Perft { depth, count }
            }
            "legal" => Step::Legal(words()),
            "play" if rest.is_empty() => return Err(format!("line {n}: play without moves")),
            "play" => Step::Play(words()),
            "position-after" => Step::PositionAfter(rest.to_string()),
            "status" => Step::Status(rest.to_string()),
            other => return Err(format!("line {n}: unknown line {other:?}")),
        };
        block.steps.push(step);
    }
    match blocks.iter().find(|b| b.position.is_empty()) {
        Some(b) => Err(format!("line {}: block without a position", b.line)),
        None => Ok(blocks),
    }
}

/// Runs every block of `text` (all of one game, `G`) through the engine and returns how many
/// steps it compared. `status` lines are the referee's reply format and are left to the
/// referee's vector test.
///
/// # Panics
/// On the first difference, naming the block, or when the file cannot be read as `G`'s.
pub fn check_engine<G: Game>(text: &str) -> usize {
    let blocks = parse(text).unwrap_or_else(|e| panic!("vector file: {e}"));
    assert!(!blocks.is_empty(), "a vector file without blocks");
    let mut compared = 0;
    for block in &blocks {
        let title = block.title();
        assert_eq!(block.game, G::INFO.id, "{title}: another game's block");
        let variant = G::Variant::from_id(&block.variant)
            .unwrap_or_else(|| panic!("{title}: unknown variant"));
        let mut game = if block.is_start() {
            G::new(variant, 0)
        } else {
            let game = G::from_position(variant, &block.position, 0)
                .unwrap_or_else(|e| panic!("{title}: position refused: {e}"));
            assert_eq!(
                game.position(),
                block.position,
                "{title}: position round trip"
            );
            game
        };
        for step in &block.steps {
            match step {
                Step::Perft { depth, count } => {
                    let got = perft(&game, *depth).unwrap_or_else(|e| panic!("{title}: {e}"));
                    assert_eq!(got, *count, "{title}: perft {depth}");
                }
                Step::Legal(want) => {
                    assert_eq!(&game.legal_texts(), want, "{title}: legal");
                    assert_eq!(game.count_legal(), want.len(), "{title}: count_legal");
                }
                Step::Play(moves) => {
                    for mv in moves {
                        game.play_text(mv)
                            .unwrap_or_else(|e| panic!("{title}: play {mv}: {e}"));
                    }
                }
                Step::PositionAfter(want) => {
                    assert_eq!(&game.position(), want, "{title}: position-after");
                }
                Step::Status(_) => continue,
            }
            compared += 1;
        }
    }
    compared
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# a comment\n\ngame mill\nvariant troika\nposition start\n\
        perft 1 24\nperft 2 552\n\ngame white-rabbit\nvariant classic\nposition k1=3 6 - -\n\
        legal end w~k1\nplay w~k1 end\nposition-after w=2 6 - -\nlegal\nstatus over lost\n";

    #[test]
    fn blocks_keep_their_steps_in_file_order() {
        let blocks = parse(SAMPLE).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].line, 3);
        assert_eq!(blocks[0].title(), "mill troika start");
        assert!(blocks[0].is_start());
        assert_eq!(
            blocks[0].steps,
            [
                Step::Perft {
                    depth: 1,
                    count: 24
                },
                Step::Perft {
                    depth: 2,
                    count: 552
                }
            ]
        );
        assert_eq!(blocks[1].position, "k1=3 6 - -");
        assert_eq!(
            blocks[1].steps,
            [
                Step::Legal(vec!["end".into(), "w~k1".into()]),
                Step::Play(vec!["w~k1".into(), "end".into()]),
                Step::PositionAfter("w=2 6 - -".into()),
                Step::Legal(Vec::new()),
                Step::Status("over lost".into()),
            ]
        );
    }

    #[test]
    fn malformed_files_are_refused_with_the_line() {
        let cases = [
            ("variant troika", "line 1: \"variant\" before any game line"),
            (
                "game mill\nvariant troika\nperft 1 24",
                "line 3: perft before the block's position",
            ),
            (
                "game mill\nposition start",
                "line 2: position before variant",
            ),
            (
                "game mill\nvariant troika\nposition start\nperft 1",
                "line 4: expected perft DEPTH COUNT",
            ),
            (
                "game mill\nvariant troika\nposition start\nperft x 3",
                "line 4: expected perft DEPTH COUNT",
            ),
            (
                "game mill\nvariant troika\nposition start\nplay",
                "line 4: play without moves",
            ),
            (
                "game mill\nvariant troika\nposition start\nperfect 1 2",
                "line 4: unknown line \"perfect\"",
            ),
            (
                "game mill\nvariant troika\nposition start\nperft 1 24\nposition start",
                "line 5: position after the block's checks",
            ),
            (
                "game mill\nvariant troika",
                "line 1: block without a position",
            ),
        ];
        for (text, error) in cases {
            assert_eq!(parse(text), Err(error.to_string()), "{text:?}");
        }
    }
}
