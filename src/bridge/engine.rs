//! The engine: a child process that speaks the referee line protocol (docs/spec/referee.md)
//! on its standard input and output, one per game. The bridge keeps it at the game's position
//! with `new` and `play` (so that it sees the history its repetition rules need), falls back
//! to `position` when replaying does not give the server's position, and asks for a move with
//! `go movetime MS`.

use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, bail};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long an engine may take over any answer beyond the time it was given to think.
const SLACK: Duration = Duration::from_secs(10);

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The moves the engine has played since its last `new`, and the position they reached;
    /// `None` when it was set up by `position` (or not yet at all).
    replayed: Option<(Vec<String>, String)>,
}

impl Engine {
    /// Starts `command` (a shell command line, such as `stolik referee`).
    pub fn start(command: &str) -> anyhow::Result<Engine> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("start the engine {command:?}"))?;
        let stdin = child.stdin.take().context("the engine's input")?;
        let stdout = BufReader::new(child.stdout.take().context("the engine's output")?);
        Ok(Engine {
            child,
            stdin,
            stdout,
            replayed: None,
        })
    }

    /// Sends one command and reads its one reply line; an `error` reply is an error.
    async fn ask(&mut self, command: &str, patience: Duration) -> anyhow::Result<String> {
        self.stdin
            .write_all(format!("{command}\n").as_bytes())
            .await
            .context("write to the engine")?;
        self.stdin.flush().await.context("write to the engine")?;
        let mut reply = String::new();
        let read = tokio::time::timeout(patience, self.stdout.read_line(&mut reply))
            .await
            .with_context(|| format!("the engine did not answer {command:?} in time"))?;
        if read.context("read from the engine")? == 0 {
            bail!("the engine ended");
        }
        let reply = reply.trim_end().to_string();
        if reply.starts_with("error") {
            bail!("the engine answered {command:?} with {reply:?}");
        }
        Ok(reply)
    }

    /// `ok POSITION` replies' position.
    async fn set(&mut self, command: &str) -> anyhow::Result<String> {
        let reply = self.ask(command, SLACK).await?;
        let position = reply
            .strip_prefix("ok ")
            .with_context(|| format!("the engine answered {command:?} with {reply:?}"))?;
        Ok(position.to_string())
    }

    /// Brings the engine to the game `game` `variant` after `moves`, at `position` (the
    /// server's): by the moves when they lead there, else by the position alone.
    pub async fn sync(
        &mut self,
        game: &str,
        variant: &str,
        moves: &[String],
        position: &str,
    ) -> anyhow::Result<()> {
        if let Some((played, at)) = &self.replayed
            && played.as_slice() == moves
            && at == position
        {
            return Ok(());
        }
        let reached = self.replay(game, variant, moves).await;
        match reached {
            Ok(reached) if reached == position => {
                self.replayed = Some((moves.to_vec(), reached));
            }
            _ => {
                let at = self
                    .set(&format!("position {game} {variant} {position}"))
                    .await?;
                if at != position {
                    bail!("the engine reads {position:?} as {at:?}");
                }
                self.replayed = None;
            }
        }
        Ok(())
    }

    /// Plays `moves` from where the engine is when they continue its history, else from a new
    /// game: the position reached.
    async fn replay(
        &mut self,
        game: &str,
        variant: &str,
        moves: &[String],
    ) -> anyhow::Result<String> {
        let (from, mut at) = match &self.replayed {
            Some((played, at)) if moves.starts_with(played) => (played.len(), at.clone()),
            _ => (0, self.set(&format!("new {game} {variant}")).await?),
        };
        self.replayed = None;
        // One `play` for all of them: a long game is one line, not hundreds of round trips.
        if from < moves.len() {
            at = self
                .set(&format!("play {}", moves[from..].join(" ")))
                .await?;
        }
        Ok(at)
    }

    /// The engine's move at the position it is at, thinking for `movetime`.
    pub async fn go(&mut self, movetime: Duration) -> anyhow::Result<String> {
        let ms = movetime.as_millis().clamp(1, 60_000);
        let reply = self
            .ask(&format!("go movetime {ms}"), movetime + SLACK)
            .await?;
        let mv = reply
            .strip_prefix("move ")
            .with_context(|| format!("the engine answered go with {reply:?}"))?;
        Ok(mv.to_string())
    }

    /// Asks the engine to end, and makes sure it does.
    pub async fn quit(mut self) {
        let _ = self.stdin.write_all(b"quit\n").await;
        let _ = self.stdin.flush().await;
        if tokio::time::timeout(Duration::from_secs(2), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}
