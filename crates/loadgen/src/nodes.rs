//! One node against two behind nginx: the closed loop (`closed.rs`) through the same nginx,
//! first with one node behind it, then with two, on one throwaway PostgreSQL database and the
//! machine's Redis each time. With two nodes the games' tables are created through nginx
//! (so spread over both) and each player's socket lands on either node: about half the calls
//! are forwarded to the table's node, as on a site with no sticky sessions. Prints moves a
//! second, the mover's acknowledgement and the nodes' CPU per move for each, and the ratio.

use std::fmt::Write;
use std::time::Duration;

use crate::closed::{Probe, measure, play_one, table};
use crate::pair::{Game, Pair};
use crate::site::{Site, SiteArgs, load_average};
use testkit::Http;

#[derive(clap::Args, Debug, Clone)]
pub struct NodesArgs {
    #[command(flatten)]
    pub site: SiteArgs,
    /// Games played at once (two sockets each), in each of the two runs.
    #[arg(long, default_value_t = 500)]
    pub games: usize,
    /// Seconds each run is measured, after a second of warm-up.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
}

pub fn run(args: &NodesArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(nodes(args))
}

async fn nodes(args: &NodesArgs) -> anyhow::Result<String> {
    let before = load_average();
    let mut sides = Vec::new();
    for (count, name) in [(1, "one node"), (2, "two nodes")] {
        let names = &["a", "b"][..count];
        let site = Site::start(&args.site, names, &["--limits", "off"]).await?;
        let ports: Vec<u16> = (0..count).map(|i| site.port(i)).collect();
        let mut nginx = testkit::Nginx::start(&ports).await?;
        let http = Http::from_address(nginx.port, "127.0.0.1");
        let pairs = Pair::many(&http, args.games, Game::default()).await?;
        // The lobby and live list of a site settle within their two-second repeats.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let probe = Probe::pids(site.nodes.iter().filter_map(|n| n.pid()));
        sides.push(measure(name, &probe, args.seconds, pairs, play_one).await);
        nginx.stop();
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load nodes: {} games (two sockets each) through nginx, {} s measured each; \
         PostgreSQL and Redis",
        args.games, args.seconds
    );
    out.push_str(&table(&sides));
    if let [one, two] = &sides[..] {
        let _ = writeln!(
            out,
            "two nodes ÷ one node, moves a second: {:.2}",
            two.per_second / one.per_second
        );
    }
    let _ = writeln!(
        out,
        "load average before {before}, after {}",
        load_average()
    );
    Ok(out)
}
