//! Bot accounts over the Bot API's NDJSON streams (`docs/bot-api.md`): `--games` bot
//! accounts, each with a token of the `bot` and `challenge` scopes and one game against a
//! guest on a socket, who challenged it. The bot follows its game stream and answers each of
//! the person's moves at once with `POST /api/bot/game/{id}/move/{move}`; the person answers
//! the bot at once over the socket; a finished game is followed by a new challenge. Measured:
//! moves a second, the bot's move (the POST sent) to the person's socket receiving it, the
//! person's move (sent) to the bot's stream line that has it, and the server's CPU.
//!
//! Limits are off (`--limits off`, as in every scenario: all the guests come from
//! 127.0.0.1), so `bot_requests_per_token` (600 a minute) does not bind; the report gives
//! the tokens' request rates beside it.

use std::cell::Cell;
use std::fmt::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::Spread;
use crate::ndjson::Lines;
use crate::pair::Game;
use crate::server::Server;
use testkit::{Conn, Http};

#[derive(clap::Args, Debug, Clone)]
pub struct BotStreamsArgs {
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// Bot accounts, each with one game against a person.
    #[arg(long, default_value_t = 500)]
    pub games: usize,
    /// Seconds measured, after two of warm-up.
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// The game played (its default variant).
    #[arg(long, value_enum, default_value_t = Game::default())]
    pub game: Game,
}

const PASSWORD: &str = "a load generator's password";
/// Registrations at once (each is hashed: argon2).
const REGISTER_AT_ONCE: usize = 16;
/// Games set up at once.
const SETUP_AT_ONCE: usize = 64;
/// `bot_requests_per_token`'s default, a second (docs/bot-api.md).
const TOKEN_LIMIT_PER_SECOND: f64 = 10.0;

pub fn run(args: &BotStreamsArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(bot_streams(args))
}

async fn bot_streams(args: &BotStreamsArgs) -> anyhow::Result<String> {
    let server = Server::start(&args.stolik, &args.web_dir, &["--limits", "off"]).await?;
    let http = Http::from_address(server.port, "127.0.0.1");
    let bots: Vec<anyhow::Result<Bot>> = futures_util::stream::iter(0..args.games)
        .map(|i| bot_account(&http, i))
        .buffer_unordered(REGISTER_AT_ONCE)
        .collect()
        .await;
    let games: Vec<anyhow::Result<BotGame>> = futures_util::stream::iter(bots)
        .map(|bot| async { BotGame::new(&http, args.game, bot?).await })
        .buffer_unordered(SETUP_AT_ONCE)
        .collect()
        .await;
    let games = games.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    let start = Instant::now() + Duration::from_secs(2);
    let end = start + Duration::from_secs(args.seconds);
    let tasks: Vec<_> = games
        .into_iter()
        .map(|game| actix_rt::spawn(game.play(start, end)))
        .collect();
    tokio::time::sleep_until(start.into()).await;
    let cpu_before = server.cpu_seconds();
    let mut all = Vec::with_capacity(tasks.len());
    for task in tasks {
        all.push(task.await?);
    }
    let measured = start.elapsed().as_secs_f64();
    let cpu = cpu_before.zip(server.cpu_seconds()).map(|(a, b)| b - a);
    Ok(report(args, &all, measured, cpu))
}

/// A bot account: its token's secret and its user id.
struct Bot {
    secret: String,
    user: String,
}

/// A new account `bot{i}`, made a bot, with a token of the bot and challenge scopes.
async fn bot_account(http: &Http, i: usize) -> anyhow::Result<Bot> {
    let guest = http.guest().await?;
    let (status, body) = http
        .post(
            "/api/register",
            &guest,
            &json!({"username": format!("bot{i}"), "password": PASSWORD}),
        )
        .await?;
    anyhow::ensure!(status == 200, "registration refused: {body}");
    let session = body["token"].as_str().unwrap_or_default().to_string();
    let user = body["user"]["id"].as_str().unwrap_or_default().to_string();
    let (status, made) = http
        .post(
            "/api/me/tokens",
            &session,
            &json!({"name": "engine", "scopes": ["bot", "challenge"]}),
        )
        .await?;
    anyhow::ensure!(status == 201, "no token: {made}");
    let secret = made["secret"].as_str().unwrap_or_default().to_string();
    let (status, upgraded) = http
        .post("/api/bot/account/upgrade", &secret, &json!({}))
        .await?;
    anyhow::ensure!(status == 200, "not made a bot: {upgraded}");
    Ok(Bot { secret, user })
}

/// One game between the bot and the person, as each sees it.
struct Table {
    id: String,
    stream: Lines,
    /// The bot's seat (`a` or `b`).
    bot_side: Value,
    /// The person's latest view (a snapshot or a move event) and the bot's (a game state).
    person_view: Value,
    bot_view: Value,
}

/// The person challenges the bot, which accepts and opens the game's stream; the person
/// follows the table on the socket. The person moves first.
async fn challenge(
    http: &Http,
    game: Game,
    bot: &Bot,
    person: &str,
    conn: &mut Conn,
) -> anyhow::Result<Table> {
    let (status, made) = http
        .post(
            &format!("/api/challenge/{}", bot.user),
            person,
            &json!({"game": game.id(), "side": "a", "rated": false}),
        )
        .await?;
    anyhow::ensure!(status == 201, "the challenge was refused: {made}");
    let challenge = made["id"].as_str().unwrap_or_default();
    let (status, accepted) = http
        .post(
            &format!("/api/challenge/{challenge}/accept"),
            &bot.secret,
            &json!({}),
        )
        .await?;
    anyhow::ensure!(status == 200, "the bot could not accept: {accepted}");
    let id = accepted["game_id"].as_str().unwrap_or_default().to_string();
    let mut stream = Lines::open(http, &format!("/api/bot/game/stream/{id}"), &bot.secret).await?;
    let full = stream.until(|line| line["type"] == "gameFull").await?;
    let snapshot = conn
        .request(json!({"type": "table.subscribe", "table": id}))
        .await?;
    anyhow::ensure!(
        snapshot["type"] == "table",
        "cannot follow the game: {snapshot}"
    );
    Ok(Table {
        id,
        stream,
        bot_side: full["you"].clone(),
        person_view: snapshot["table"].clone(),
        bot_view: full["state"].clone(),
    })
}

/// One bot and the person who plays it.
struct BotGame {
    http: Http,
    game: Game,
    bot: Bot,
    person: String,
    conn: Conn,
    table: Table,
}

/// What one game measured.
#[derive(Default)]
struct Timed {
    /// The bot's POST sent → the person's socket has the move.
    to_person: Vec<Duration>,
    /// The person's move sent → the bot's stream has it.
    to_bot: Vec<Duration>,
    /// Bot API requests (moves, challenges accepted, streams opened) while measured.
    bot_requests: u64,
    games: u64,
    /// The person's moves refused by the socket's request rate, and sent again.
    throttled: u64,
    errors: u64,
}

/// Whether a person's message follows the move played at `ply`: its event, or the end.
fn person_after(message: &Value, ply: u64) -> bool {
    (message["type"] == "move" && message["ply"].as_u64() == Some(ply + 1))
        || message["type"] == "end"
}

/// Whether a bot's stream line follows the move played at `ply`.
fn bot_after(line: &Value, ply: u64) -> bool {
    line["type"] == "gameState"
        && (line["ply"].as_u64().is_some_and(|p| p > ply) || line["status"] != "playing")
}

fn first_legal(view: &Value) -> Option<String> {
    view["legal"]
        .as_array()?
        .first()?
        .as_str()
        .map(str::to_string)
}

impl BotGame {
    async fn new(http: &Http, game: Game, bot: Bot) -> anyhow::Result<BotGame> {
        let person = http.guest().await?;
        let mut conn = http.connect(&person).await?;
        let table = challenge(http, game, &bot, &person, &mut conn).await?;
        Ok(BotGame {
            http: http.clone(),
            game,
            bot,
            person,
            conn,
            table,
        })
    }

    /// Plays until `end`, timing the moves sent from `start` on.
    async fn play(mut self, start: Instant, end: Instant) -> Timed {
        let mut timed = Timed::default();
        while Instant::now() < end {
            if let Err(e) = self.step(start, &mut timed).await
                && crate::too_many_errors(&mut timed.errors, "bot-streams", &e)
            {
                break;
            }
        }
        timed
    }

    /// One move (the bot's or the person's), or a new game after one that ended.
    async fn step(&mut self, start: Instant, timed: &mut Timed) -> anyhow::Result<()> {
        let measured = Instant::now() >= start;
        let state = &self.table.bot_view;
        if state["status"] != "playing" {
            let old = self.table.id.clone();
            self.conn
                .request(json!({"type": "table.unsubscribe", "table": old}))
                .await?;
            self.table = challenge(
                &self.http,
                self.game,
                &self.bot,
                &self.person,
                &mut self.conn,
            )
            .await?;
            if measured {
                timed.games += 1;
                timed.bot_requests += 2;
            }
            return Ok(());
        }
        let ply = state["ply"].as_u64().context("a state without its ply")?;
        let (conn, table) = (&mut self.conn, &mut self.table);
        if table.bot_view["to_move"] == table.bot_side {
            let mv = first_legal(&table.bot_view).context("the bot has no legal move")?;
            let path = format!("/api/bot/game/{}/move/{mv}", table.id);
            let body = json!({});
            let sent = Instant::now();
            let posted = self.http.post(&path, &self.bot.secret, &body);
            let seen = async {
                let event = conn.until(|m| person_after(m, ply)).await?;
                anyhow::Ok((sent.elapsed(), event))
            };
            let echoed = table.stream.until(|line| bot_after(line, ply));
            let (posted, seen, echoed) = tokio::join!(posted, seen, echoed);
            let (status, answer) = posted?;
            anyhow::ensure!(status == 200, "the bot's move {mv} was refused: {answer}");
            let (latency, event) = seen?;
            table.person_view = event;
            table.bot_view = echoed?;
            if measured {
                timed.to_person.push(latency);
                timed.bot_requests += 1;
            }
        } else {
            let mv = first_legal(&table.person_view).context("the person has no legal move")?;
            let request = json!({"type": "move", "table": table.id, "move": mv, "ply": ply});
            let sent = Cell::new(Instant::now());
            let mut id = conn.send(request.clone()).await?;
            let mut throttled = 0;
            let acked = async {
                let (mut ok, mut event) = (false, None);
                while !ok || event.is_none() {
                    let message = conn.next().await?;
                    if message["id"] == json!(id) && message["code"] == "rate_limited" {
                        // Over the socket's own request rate (20 a second, whatever the
                        // limits): wait, send again, as a page would.
                        throttled += 1;
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        sent.set(Instant::now());
                        id = conn.send(request.clone()).await?;
                    } else if message["id"] == json!(id) {
                        anyhow::ensure!(message["type"] == "ok", "move refused: {message}");
                        ok = true;
                    } else if person_after(&message, ply) {
                        event = Some(message);
                    }
                }
                anyhow::Ok(event.expect("read above"))
            };
            let echoed = async {
                let line = table.stream.until(|line| bot_after(line, ply)).await?;
                anyhow::Ok((sent.get().elapsed(), line))
            };
            let (acked, echoed) = tokio::join!(acked, echoed);
            let event = acked?;
            let (latency, line) = echoed?;
            table.person_view = event;
            table.bot_view = line;
            if measured {
                timed.to_bot.push(latency);
                timed.throttled += throttled;
            }
        }
        Ok(())
    }
}

fn report(args: &BotStreamsArgs, all: &[Timed], seconds: f64, cpu: Option<f64>) -> String {
    let mut to_person: Vec<Duration> = all.iter().flat_map(|t| t.to_person.clone()).collect();
    let mut to_bot: Vec<Duration> = all.iter().flat_map(|t| t.to_bot.clone()).collect();
    let moves = to_person.len() + to_bot.len();
    let spread = |s: &mut [Duration]| {
        Spread::of(s).map_or("—".to_string(), |s| {
            format!("{:.2} / {:.2}", s.p50, s.p99)
        })
    };
    let per_token: Vec<f64> = all
        .iter()
        .map(|t| t.bot_requests as f64 / seconds)
        .collect();
    let mean_token = per_token.iter().sum::<f64>() / per_token.len().max(1) as f64;
    let max_token = per_token.iter().copied().fold(0.0, f64::max);
    let cpu_share = cpu.map_or("—".to_string(), |c| {
        format!("{:.0} %", c * 100.0 / seconds)
    });
    let cpu_each = cpu.filter(|_| moves > 0).map_or("—".to_string(), |c| {
        format!("{:.0}", c * 1e6 / moves as f64)
    });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load bot-streams: {} {} games, a bot account (game stream, POST move) against a guest on a socket in each, {seconds:.0} s measured",
        args.games,
        args.game.id()
    );
    let _ = writeln!(
        out,
        "| moves | moves/s | bot's POST → person's socket p50 / p99 ms | person's move → bot's stream p50 / p99 ms | games begun | server CPU | CPU µs a move | errors |"
    );
    let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- | --- | --- |");
    let _ = writeln!(
        out,
        "| {moves} | {:.0} | {} | {} | {} | {cpu_share} | {cpu_each} | {} |",
        moves as f64 / seconds,
        spread(&mut to_person),
        spread(&mut to_bot),
        all.iter().map(|t| t.games).sum::<u64>(),
        all.iter().map(|t| t.errors).sum::<u64>(),
    );
    let _ = writeln!(
        out,
        "Bot API requests a token a second: {mean_token:.2} on average, {max_token:.2} at most (limits off; `bot_requests_per_token`'s default is {TOKEN_LIMIT_PER_SECOND:.0}: {})",
        if max_token > TOKEN_LIMIT_PER_SECOND {
            "it would bind"
        } else {
            "it would not bind"
        }
    );
    let throttled: u64 = all.iter().map(|t| t.throttled).sum();
    if throttled > 0 {
        let _ = writeln!(
            out,
            "The person's moves over the socket's own rate of 20 requests a second, sent again 50 ms later: {throttled}"
        );
    }
    let _ = writeln!(
        out,
        "load average at the end: {}",
        crate::site::load_average()
    );
    out
}
