//! Idle authenticated sockets: what each costs the server in memory.

use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

use crate::server::Server;
use testkit::Http;

#[derive(clap::Args, Debug, Clone)]
pub struct IdleArgs {
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    /// Sockets opened (one guest each).
    #[arg(long, default_value_t = 5000)]
    pub sockets: usize,
}

pub fn run(args: &IdleArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(idle(args))
}

async fn idle(args: &IdleArgs) -> anyhow::Result<String> {
    let server = Server::start(&args.stolik, &args.web_dir, &["--limits", "off"]).await?;
    let http = Http::from_address(server.port, "127.0.0.1");
    // Guests first, so that only the sockets stand between the two readings.
    let mut tokens = Vec::with_capacity(args.sockets);
    for _ in 0..args.sockets {
        tokens.push(http.guest().await?);
    }
    // A warm-up socket, so that what the first one allocates once is not counted per socket.
    let _warm = http.connect(&tokens[0]).await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = server.rss_bytes().unwrap_or(0);
    let mut conns = Vec::with_capacity(args.sockets);
    for token in &tokens {
        conns.push(http.connect(token).await?);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = server.rss_bytes().unwrap_or(0);
    let per_socket = after.saturating_sub(before) as f64 / args.sockets as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load idle: {} sockets; server RSS {:.0} → {:.0} MiB; {:.1} KiB a socket; {:.0} sockets per GB",
        args.sockets,
        before as f64 / f64::from(1 << 20),
        after as f64 / f64::from(1 << 20),
        per_socket / 1024.0,
        1e9 / per_socket.max(1.0),
    );
    drop(conns);
    Ok(out)
}
