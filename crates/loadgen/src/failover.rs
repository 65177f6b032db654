//! Failover: two nodes on PostgreSQL and Redis; a few bot tables run by node `a`, each with
//! its player connected to node `b` (every call forwarded to `a`). Node `a` is SIGKILLed and
//! each player keeps trying its next move; measured is the time from the kill to the move
//! accepted by the table's new owner (`b`, once `a`'s leases ran out and it took the tables
//! over). Node `a` comes back, makes the next round's tables, and is killed again, each time
//! at another point of its one-second lease renewal cycle.

use std::fmt::Write;
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use serde_json::{Value, json};

use crate::site::{Site, SiteArgs, load_average};
use testkit::{Conn, Http};

#[derive(clap::Args, Debug, Clone)]
pub struct FailoverArgs {
    #[command(flatten)]
    pub site: SiteArgs,
    /// SIGKILLs of the tables' node.
    #[arg(long, default_value_t = 20)]
    pub kills: usize,
    /// Bot tables run by the node to be killed, each with a player on the other node.
    #[arg(long, default_value_t = 3)]
    pub tables: usize,
}

pub fn run(args: &FailoverArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(failover(args))
}

/// The longest a player keeps trying its move after a kill.
const PATIENCE: Duration = Duration::from_secs(60);

/// A player at a bot table: its socket, and what it knows of the game.
struct Player {
    conn: Conn,
    table: String,
    ply: u64,
    legal: Vec<String>,
}

impl Player {
    /// A guest of `owner` at a new mill table against an easy bot, made through `owner` (which
    /// runs it) and played through `through`; one move is played and answered, so that the
    /// table is known to work across the nodes before anything is killed.
    async fn at_a_new_table(owner: &Http, through: &Http) -> anyhow::Result<Player> {
        let token = owner.guest().await?;
        let body = json!({"game": "mill", "bot": "easy"});
        let (status, table) = owner
            .call("POST", "/api/tables", Some(&token), Some(&body))
            .await;
        anyhow::ensure!(status == 201, "cannot create a bot table: {status} {table}");
        let id = table["id"].as_str().unwrap_or_default().to_string();
        let mut conn = through.connect(&token).await?;
        let snapshot = conn
            .request(json!({"type": "table.subscribe", "table": id}))
            .await?;
        anyhow::ensure!(snapshot["type"] == "table", "no snapshot: {snapshot}");
        let mut player = Player {
            conn,
            table: id,
            ply: 0,
            legal: Vec::new(),
        };
        player.learn(&snapshot["table"]);
        let ply = player.ply;
        let reply = player.try_move().await?;
        anyhow::ensure!(reply["type"] == "ok", "the first move: {reply}");
        player.wait_for_ply(ply + 2).await?;
        Ok(player)
    }

    fn learn(&mut self, state: &Value) {
        self.ply = state["ply"].as_u64().unwrap_or(self.ply);
        self.legal = state["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|m| m.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
    }

    /// Keeps what a message says of the game, when it is newer than what is known: a move
    /// event, or a snapshot (which is what a player on the surviving node gets once its
    /// subscription was made again, instead of the events in between).
    fn observe(&mut self, message: &Value) {
        let state = match message["type"].as_str() {
            Some("move") if message["table"] == self.table.as_str() => message,
            Some("table") if message["table"]["id"] == self.table.as_str() => &message["table"],
            _ => return,
        };
        if state["ply"].as_u64() > Some(self.ply) {
            self.learn(state);
        }
    }

    /// Sends the first legal move once; the reply. Events read meanwhile are kept (the reply
    /// to a forwarded call and the table's events travel apart, so either may come first).
    async fn try_move(&mut self) -> anyhow::Result<Value> {
        let mv = self.legal.first().cloned().unwrap_or_default();
        let id = self
            .conn
            .send(json!({"type": "move", "table": self.table, "move": mv, "ply": self.ply}))
            .await?;
        loop {
            let message = self.conn.next().await?;
            if message["id"] == json!(id) {
                return Ok(message);
            }
            self.observe(&message);
        }
    }

    /// Reads until the game is at `ply` or past it.
    async fn wait_for_ply(&mut self, ply: u64) -> anyhow::Result<()> {
        while self.ply < ply {
            let message = self.conn.next().await?;
            self.observe(&message);
        }
        Ok(())
    }

    /// Tries the next move until it is accepted (a table between owners answers `busy`); the
    /// time from `killed` to the acceptance.
    async fn move_after(&mut self, killed: Instant) -> anyhow::Result<Duration> {
        let mut refusals = 0u32;
        loop {
            let reply = self.try_move().await?;
            if reply["type"] == "ok" {
                return Ok(killed.elapsed());
            }
            anyhow::ensure!(
                reply["code"] == "busy" && killed.elapsed() < PATIENCE,
                "the move after the kill was refused ({refusals} busy before): {reply}"
            );
            refusals += 1;
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

async fn failover(args: &FailoverArgs) -> anyhow::Result<String> {
    anyhow::ensure!(args.tables > 0, "at least one table");
    let load_before = load_average();
    // Node 0 runs the tables and is killed; node 1 carries the players and takes over.
    let mut site = Site::start(&args.site, &["a", "b"], &["--limits", "off"]).await?;
    let result = measure(args, &mut site).await;
    site.keep_logs = result.is_err();
    let (samples, per_kill) = result?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load failover: {} kills of the node running {} bot tables, each played from the other node",
        args.kills, args.tables
    );
    let mut all = samples;
    all.sort();
    let at = |s: &[Duration], q: f64| crate::quantile_ms(s, q).unwrap_or(f64::NAN);
    let _ = writeln!(
        out,
        "kill → move accepted by the new owner, {} moves: median {:.0} ms, p90 {:.0} ms, max {:.0} ms (min {:.0} ms)",
        all.len(),
        at(&all, 0.5),
        at(&all, 0.9),
        at(&all, 1.0),
        at(&all, 0.0),
    );
    let mut last = per_kill;
    last.sort();
    let _ = writeln!(
        out,
        "the last table of each kill: median {:.0} ms, p90 {:.0} ms, max {:.0} ms",
        at(&last, 0.5),
        at(&last, 0.9),
        at(&last, 1.0),
    );
    let _ = writeln!(
        out,
        "load average before {load_before}, after {}",
        load_average()
    );
    Ok(out)
}

/// Every player's time from its kill to its accepted move, and the slowest of each kill.
async fn measure(
    args: &FailoverArgs,
    site: &mut Site,
) -> anyhow::Result<(Vec<Duration>, Vec<Duration>)> {
    let mut samples = Vec::new();
    let mut per_kill = Vec::new();
    for kill in 0..args.kills {
        let (owner, through) = (
            Http::from_address(site.port(0), "127.0.0.1"),
            Http::from_address(site.port(1), "127.0.0.1"),
        );
        let mut players = Vec::with_capacity(args.tables);
        for _ in 0..args.tables {
            players.push(Player::at_a_new_table(&owner, &through).await?);
        }
        // The owner renews its leases every second from its start, and each round starts at
        // the same time after a restart: without this wait every kill would land at one point
        // of that cycle. With it the kills spread evenly over the second (golden-ratio steps).
        let phase = (kill as f64 * 0.618_033_988_75).fract();
        tokio::time::sleep(Duration::from_secs_f64(phase)).await;
        site.kill(0);
        let killed = Instant::now();
        let times = join_all(players.iter_mut().map(|p| p.move_after(killed))).await;
        let mut slowest = Duration::ZERO;
        for time in times {
            let time = time.map_err(|e| e.context(format!("kill {}", kill + 1)))?;
            slowest = slowest.max(time);
            samples.push(time);
        }
        per_kill.push(slowest);
        eprintln!(
            "stolik-load failover: kill {}: the last move accepted after {} ms",
            kill + 1,
            slowest.as_millis()
        );
        drop(players);
        site.start_node(0).await?;
    }
    Ok((samples, per_kill))
}
