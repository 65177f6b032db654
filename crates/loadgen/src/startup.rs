//! Start-up with many unfinished tables: `--tables` open public tables are made by as many
//! guests, the server is stopped, and the time until a new server on the same database
//! answers `/healthz` with 200 is taken (the port opens at once, and `/healthz` answers 503
//! `restoring` until every table is back).

use std::fmt::Write;
use std::path::PathBuf;
use std::time::Instant;

use futures_util::StreamExt;

use crate::server::Server;
use testkit::Http;

#[derive(clap::Args, Debug, Clone)]
pub struct StartupArgs {
    #[arg(long, default_value = "target/release/stolik")]
    pub stolik: PathBuf,
    #[arg(long, default_value = "web")]
    pub web_dir: PathBuf,
    #[arg(long, default_value_t = 3000)]
    pub tables: usize,
}

pub fn run(args: &StartupArgs) -> anyhow::Result<String> {
    actix_rt::System::new().block_on(startup(args))
}

async fn startup(args: &StartupArgs) -> anyhow::Result<String> {
    let dir = std::env::temp_dir().join(format!("stolik-startup-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let database = format!("sqlite://{}", dir.join("startup.db").display());
    let extra = ["--limits", "off", "--database", database.as_str()];
    let server = Server::start(&args.stolik, &args.web_dir, &extra).await?;
    let http = Http::from_address(server.port, "127.0.0.1");
    let made: Vec<anyhow::Result<String>> = futures_util::stream::iter(0..args.tables)
        .map(|_| http.open_public_table("mill"))
        .buffer_unordered(32)
        .collect()
        .await;
    made.into_iter().collect::<anyhow::Result<Vec<String>>>()?;
    drop(server);
    let started = Instant::now();
    let restarted = Server::start(&args.stolik, &args.web_dir, &extra).await?;
    let took = started.elapsed();
    drop(restarted);
    let _ = std::fs::remove_dir_all(&dir);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "stolik-load startup: {} open tables restored and serving in {:.2} s",
        args.tables,
        took.as_secs_f64()
    );
    Ok(out)
}
