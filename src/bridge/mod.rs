//! `stolik bot`: the bridge between a bot account on a Stolik server and an engine that speaks
//! the referee protocol (docs/bot-api.md, "Bridge"). It answers the account's challenges by a
//! policy of flags ([`policy`]), and for each game follows its stream, keeps the engine at the
//! game's position and posts the engine's moves ([`game`], [`engine`]).

pub mod api;
pub mod engine;
pub mod events;
pub mod game;
pub mod policy;
pub mod think_time;

use std::time::Duration;

pub use events::Bridge;
pub use game::Finished;
pub use policy::Policy;

/// Connect a bot account to an engine.
#[derive(clap::Args, Debug, Clone)]
pub struct BotArgs {
    /// The server's address, such as `https://stolik.example`.
    #[arg(long, env = "STOLIK_SERVER")]
    pub server: String,
    /// A personal API token of the bot account with the `bot`, `challenge` and `read` scopes.
    #[arg(long, env = "STOLIK_BOT_TOKEN", hide_env_values = true)]
    pub token: String,
    /// The engine's command line, run by `sh -c` once for each game: it speaks the referee
    /// protocol (docs/spec/referee.md), `go movetime` included.
    #[arg(long, default_value = "stolik referee")]
    pub engine: String,
    /// The most milliseconds the engine thinks about one move, whatever the clock leaves.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub movetime_ms: u64,
    #[command(flatten)]
    pub policy: Policy,
}

/// Runs the bridge until its token is refused, writing a line for each finished game.
pub fn run(args: BotArgs) -> anyhow::Result<()> {
    let bridge = Bridge {
        api: api::Api::new(&args.server, &args.token),
        policy: args.policy,
        engine: args.engine,
        movetime_cap: Duration::from_millis(args.movetime_ms),
    };
    actix_web::rt::System::new().block_on(async move {
        let (finished, mut told) = tokio::sync::mpsc::unbounded_channel();
        actix_web::rt::spawn(async move {
            while let Some(game) = told.recv().await {
                let game: Finished = game;
                tracing::info!(
                    game = %game.id,
                    "{} {} {}: {} {} after {} moves",
                    game.game,
                    game.variant,
                    game.you,
                    game.status,
                    game.result,
                    game.moves.len()
                );
            }
        });
        bridge.run(finished).await
    })
}
