//! `stolik-load`: drives a real `stolik serve` over its public protocol and prints what it
//! measured. `flood` checks that an honest player's moves stay quick while another address
//! floods logins, guest identities, table creation or sockets.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "stolik-load", about)]
struct Args {
    #[command(subcommand)]
    scenario: Scenario,
}

#[derive(Subcommand)]
enum Scenario {
    /// An honest pair plays while another address floods; prints their move round trip per
    /// flood against the same with no flood, and how the flood was answered.
    Flood(loadgen::flood::FloodArgs),
    /// Every game moves as fast as the server answers; the same against a bare echo server.
    Closed(loadgen::closed::ClosedArgs),
    /// Every game moves at a fixed rate; acknowledgement and opponent receipt latencies, and
    /// the same frames a second against a bare echo server.
    Open(loadgen::open::OpenArgs),
    /// One game watched by many sockets: the last spectator's delivery of each move.
    Spectators(loadgen::spectators::SpectatorsArgs),
    /// Idle authenticated sockets: the server's memory per socket.
    Idle(loadgen::idle::IdleArgs),
    /// Many open tables: a new table's change reaching the lobby's watchers, its size against
    /// the whole lobby's, and the server's CPU with and without watchers.
    Lobby(loadgen::lobby::LobbyArgs),
    /// Start-up with many unfinished tables: the time until the server serves again.
    Startup(loadgen::startup::StartupArgs),
    /// Two nodes on PostgreSQL and Redis; the one running the tables is SIGKILLed again and
    /// again: the time from each kill to a move accepted by the tables' new owner.
    Failover(loadgen::failover::FailoverArgs),
    /// Two nodes on PostgreSQL and Redis; games run by one, a spectator of each on the other:
    /// how long a move takes to reach the other node's spectator.
    CrossNode(loadgen::crossnode::CrossNodeArgs),
    /// One node against two behind nginx on PostgreSQL and Redis: the closed loop's moves a
    /// second and acknowledgement through the same nginx, and the ratio.
    Nodes(loadgen::nodes::NodesArgs),
    /// An arena of many accounts playing as fast as the server answers, its standings
    /// followed by many sockets: each result's way to the watchers, and each update's size.
    Arena(loadgen::arena::ArenaArgs),
    /// Correspondence games whose players are away from their tables, each move a Web Push
    /// to the opponent at a stand-in push service: pushes a second, a move's acknowledgement
    /// to its push, the outbox's backlog, and the move ack p99 against a run with no
    /// subscriptions.
    Push(loadgen::push::PushArgs),
    /// Bot accounts playing people over the Bot API's NDJSON streams and `POST move`: moves a
    /// second, the bot's move to the person's socket and the person's to the bot's stream.
    BotStreams(loadgen::bot_streams::BotStreamsArgs),
    /// Two builds alternated in one run (closed and open loop, same games and moves): each
    /// round's figures and the ratio B ÷ A, then the median ratios.
    Compare(loadgen::compare::CompareArgs),
    /// The open loop's live games run again and again, alternately without and with players
    /// keeping the server's engine review queue busy: each run's human move latencies, the
    /// reviews done, and the p99 with ÷ without round by round.
    Reviews(loadgen::reviews::ReviewsArgs),
    /// The bare actix-ws echo server the `closed` scenario compares with (started by it).
    #[command(hide = true)]
    EchoServer {
        #[arg(long)]
        port: u16,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.scenario {
        Scenario::Flood(flood) => loadgen::flood::run(&flood),
        Scenario::Closed(closed) => loadgen::closed::run(&closed),
        Scenario::Open(open) => loadgen::open::run(&open),
        Scenario::Spectators(spectators) => loadgen::spectators::run(&spectators),
        Scenario::Arena(arena) => loadgen::arena::run(&arena),
        Scenario::Idle(idle) => loadgen::idle::run(&idle),
        Scenario::Lobby(lobby) => loadgen::lobby::run(&lobby),
        Scenario::Startup(startup) => loadgen::startup::run(&startup),
        Scenario::Failover(failover) => loadgen::failover::run(&failover),
        Scenario::CrossNode(cross) => loadgen::crossnode::run(&cross),
        Scenario::Nodes(nodes) => loadgen::nodes::run(&nodes),
        Scenario::Push(push) => loadgen::push::run(&push),
        Scenario::BotStreams(bots) => loadgen::bot_streams::run(&bots),
        Scenario::Compare(compare) => loadgen::compare::run(&compare),
        Scenario::Reviews(reviews) => loadgen::reviews::run(&reviews),
        Scenario::EchoServer { port } => loadgen::echo::serve(port)
            .map(|()| String::new())
            .map_err(Into::into),
    };
    match result {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("stolik-load: {e:#}");
            ExitCode::FAILURE
        }
    }
}
