//! The referee line protocol (`docs/spec/referee.md`): one command per line, exactly one reply
//! line per command, and no input ever ends the process except `quit`.

use std::time::Duration;

use catalog::{AnyGame, Outcome, VariantId};

/// The longest `go movetime` the referee accepts: a minute, so that no command blocks for long.
pub const MAX_MOVETIME_MS: u64 = 60_000;

#[derive(Default)]
pub struct Referee {
    game: Option<AnyGame>,
    /// How many `go` commands came before: the seed of the next search, so that a session
    /// replayed gives the same moves whenever the clock does not cut a search short.
    searches: u64,
}

impl Referee {
    /// The reply to one command line, or `None` for `quit` (the caller then stops).
    pub fn answer(&mut self, line: &str) -> Option<String> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Some("error empty line".to_string());
        };
        let args: Vec<&str> = words.collect();
        let reply = match command {
            "quit" if args.is_empty() => return None,
            "quit" => Err("quit takes no arguments".to_string()),
            "new" => self.new_game(&args),
            "position" => self.position(&args),
            "play" => self.play(&args),
            "legal" => self.legal(&args),
            "perft" => self.perft(&args),
            "status" => self.status(&args),
            "go" => self.go(&args),
            other => Err(format!("unknown command {other:?}")),
        };
        Some(reply.unwrap_or_else(|message| format!("error {message}")))
    }

    fn new_game(&mut self, args: &[&str]) -> Result<String, String> {
        let (&game, rest) = args
            .split_first()
            .ok_or("usage: new GAME [VARIANT] [seed=N]")?;
        let mut variant = None;
        let mut seed = 0;
        for &arg in rest {
            if let Some(n) = arg.strip_prefix("seed=") {
                seed = n.parse().map_err(|_| format!("bad seed {n:?}"))?;
            } else if variant.is_none() {
                variant = Some(arg);
            } else {
                return Err(format!("unexpected {arg:?}"));
            }
        }
        let variant = VariantId::parse(game, variant).map_err(|e| e.to_string())?;
        let g = AnyGame::new(variant, seed);
        Ok(self.set(g))
    }

    fn position(&mut self, args: &[&str]) -> Result<String, String> {
        let [game, variant, position @ ..] = args else {
            return Err("usage: position GAME VARIANT POSITION".to_string());
        };
        if position.is_empty() {
            return Err("usage: position GAME VARIANT POSITION".to_string());
        }
        let variant = VariantId::parse(game, Some(variant)).map_err(|e| e.to_string())?;
        let g =
            AnyGame::from_position(variant, &position.join(" "), 0).map_err(|e| e.to_string())?;
        Ok(self.set(g))
    }

    fn set(&mut self, game: AnyGame) -> String {
        let reply = format!("ok {}", game.position());
        self.game = Some(game);
        reply
    }

    fn current(&mut self) -> Result<&mut AnyGame, String> {
        self.game
            .as_mut()
            .ok_or_else(|| "no game: start one with new or position".to_string())
    }

    fn play(&mut self, moves: &[&str]) -> Result<String, String> {
        if moves.is_empty() {
            return Err("usage: play MOVE [MOVE...]".to_string());
        }
        let game = self.current()?;
        if game.is_over() {
            return Err("the game is over".to_string());
        }
        game.play_texts(moves.iter().copied())
            .map_err(|e| e.to_string())?;
        Ok(format!("ok {}", game.position()))
    }

    fn legal(&mut self, args: &[&str]) -> Result<String, String> {
        no_arguments("legal", args)?;
        let game = self.current()?;
        let mut reply = String::from("legal");
        for mv in game.legal_texts() {
            reply.push(' ');
            reply.push_str(&mv);
        }
        Ok(reply)
    }

    fn perft(&mut self, args: &[&str]) -> Result<String, String> {
        let [depth] = args else {
            return Err("usage: perft DEPTH".to_string());
        };
        let depth: u32 = depth.parse().map_err(|_| format!("bad depth {depth:?}"))?;
        let game = self.current()?;
        let n = game.perft(depth).map_err(|e| e.to_string())?;
        Ok(format!("perft {n}"))
    }

    fn status(&mut self, args: &[&str]) -> Result<String, String> {
        no_arguments("status", args)?;
        let game = self.current()?;
        Ok(match game.outcome() {
            // The referee names a winner by the game's side label (`r`, `w`, …), as its
            // protocol says; everything else in the platform writes the seat letter.
            Some(Outcome::Win(seat)) => format!("over {}", game.seat_label(seat)),
            Some(outcome) => format!("over {outcome}"),
            None => match game.turn_label() {
                "" => "ongoing".to_string(),
                side => format!("ongoing {side}"),
            },
        })
    }
}

impl Referee {
    /// `go movetime MS`: the move of the platform's Hard bot after thinking for at most MS
    /// milliseconds. The move is not played: the caller sends `play` for the move the game
    /// went on with.
    fn go(&mut self, args: &[&str]) -> Result<String, String> {
        let ["movetime", ms] = args else {
            return Err("usage: go movetime MS".to_string());
        };
        let ms: u64 = ms
            .parse()
            .ok()
            .filter(|ms| (1..=MAX_MOVETIME_MS).contains(ms))
            .ok_or_else(|| format!("bad movetime {ms:?}: 1 to {MAX_MOVETIME_MS} ms"))?;
        let seed = self.searches;
        let game = self.current()?;
        if game.is_over() {
            return Err("the game is over".to_string());
        }
        let mv = ai::choose_move(game, ai::Level::Hard, Duration::from_millis(ms), seed)
            .ok_or_else(|| format!("no bot plays {}", game.id().as_str()))?;
        self.searches += 1;
        Ok(format!("move {mv}"))
    }
}

fn no_arguments(command: &str, args: &[&str]) -> Result<(), String> {
    match args.first() {
        None => Ok(()),
        Some(extra) => Err(format!("{command} takes no arguments, got {extra:?}")),
    }
}
