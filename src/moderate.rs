//! `stolik moderate`: what an operator does about an account, straight in the database.
//!
//! A flagged account can no longer chat or open public tables; a running server checks the
//! flag before each chat line and each new public table, so it holds at once.

use std::io::Write;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
pub struct ModerateArgs {
    /// The database the server uses.
    #[arg(
        long = "database",
        env = "DATABASE_URL",
        default_value = "sqlite://data/stolik.db"
    )]
    pub database_url: String,
    #[command(subcommand)]
    pub action: ModerateAction,
}

#[derive(Subcommand, Debug)]
pub enum ModerateAction {
    /// Restrict an account (by username or user id): no chat, no public tables.
    Flag { user: String },
    /// Lift the restriction.
    Unflag { user: String },
    /// The reports about an account, newest first.
    Reports { user: String },
}

pub fn run(args: &ModerateArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let store = store::Store::connect(&args.database_url).await?;
        let result = act(&store, &args.action, out).await;
        store.close().await;
        result
    })
}

async fn act(
    store: &store::Store,
    action: &ModerateAction,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let (ModerateAction::Flag { user }
    | ModerateAction::Unflag { user }
    | ModerateAction::Reports { user }) = action;
    let found = match store.user_by_username(user).await? {
        Some(found) => Some(found),
        None => store.user(user).await?,
    };
    let Some(found) = found else {
        anyhow::bail!("no user named {user:?} (give a username or a user id)");
    };
    let name = found.username.as_deref().unwrap_or(&found.display_name);
    match action {
        ModerateAction::Flag { .. } => {
            store
                .set_flagged(&found.id, Some(server::identity::unix_ms()))
                .await?;
            writeln!(
                out,
                "flagged {name} ({}): no chat, no public tables",
                found.id
            )?;
        }
        ModerateAction::Unflag { .. } => {
            store.set_flagged(&found.id, None).await?;
            writeln!(out, "unflagged {name} ({})", found.id)?;
        }
        ModerateAction::Reports { .. } => {
            let reports = store.reports_about(&found.id).await?;
            writeln!(
                out,
                "{} report(s) about {name} ({})",
                reports.len(),
                found.id
            )?;
            for r in reports {
                let line = r
                    .chat_id
                    .map(|c| format!(" chat line {c}"))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "#{} at {} by {}{line}: {}",
                    r.id, r.created_at, r.reporter_id, r.reason
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operator_flags_unflags_and_reads_reports() {
        let db = store::testing::TestDatabase::sqlite();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let store = store::Store::connect(&db.url).await.unwrap();
            store.create_user("u1", "Fox 1000", 1).await.unwrap();
            store.create_user("u2", "Owl 2000", 1).await.unwrap();
            store
                .add_report(&store::NewReport {
                    reporter_id: "u2".into(),
                    reported_id: "u1".into(),
                    chat_id: None,
                    reason: "spam".into(),
                    created_at: 5,
                })
                .await
                .unwrap();
            store.close().await;
        });
        let run_one = |action: ModerateAction| {
            let args = ModerateArgs {
                database_url: db.url.clone(),
                action,
            };
            let mut out = Vec::new();
            run(&args, &mut out).map(|()| String::from_utf8(out).unwrap())
        };
        let flagged = run_one(ModerateAction::Flag { user: "u1".into() }).unwrap();
        assert!(flagged.starts_with("flagged Fox 1000"), "{flagged}");
        let reports = run_one(ModerateAction::Reports { user: "u1".into() }).unwrap();
        assert!(
            reports.contains("1 report(s)") && reports.contains("spam"),
            "{reports}"
        );
        assert!(run_one(ModerateAction::Unflag { user: "u1".into() }).is_ok());
        assert!(
            run_one(ModerateAction::Flag {
                user: "nobody".into()
            })
            .is_err()
        );
        runtime.block_on(async {
            let store = store::Store::connect(&db.url).await.unwrap();
            assert_eq!(store.user("u1").await.unwrap().unwrap().flagged_at, None);
            store.close().await;
        });
    }
}
