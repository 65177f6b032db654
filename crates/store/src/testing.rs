//! Throw-away databases for tests, here and in the server's end-to-end suite.
//!
//! PostgreSQL is found through `STOLIK_TEST_POSTGRES` (an admin URL, default
//! `postgres://postgres@127.0.0.1:5432/postgres`). Tests that need it are `#[ignore]`d with
//! "postgres" in their names, so that without PostgreSQL cargo reports them as ignored, never
//! as passed; `tests/run` runs them (`-- --ignored postgres`) when PostgreSQL answers or
//! `STOLIK_REQUIRE_POSTGRES=1`, and then [`postgres_admin`] fails them if it does not.

use std::path::PathBuf;
use std::time::Duration;

use sqlx::Connection;
use sqlx::postgres::PgConnection;

pub const DEFAULT_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// Where a test database lives, so it can be removed when the test ends, pass or panic.
#[derive(Debug)]
enum Place {
    File(PathBuf),
    Postgres { admin_url: String, name: String },
}

/// A fresh database that is removed when this value drops.
#[derive(Debug)]
pub struct TestDatabase {
    pub url: String,
    place: Place,
}

impl TestDatabase {
    /// A new SQLite file in the temp dir (created on first connect).
    pub fn sqlite() -> TestDatabase {
        let path = std::env::temp_dir().join(format!("stolik-test-{}.db", crate::new_id()));
        TestDatabase {
            url: format!("sqlite://{}", path.display()),
            place: Place::File(path),
        }
    }

    /// A new, empty PostgreSQL database created through `admin_url`.
    pub async fn postgres(admin_url: &str) -> Result<TestDatabase, sqlx::Error> {
        let name = format!("stolik_test_{}", crate::new_id());
        let mut admin = PgConnection::connect(admin_url).await?;
        sqlx::raw_sql(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await?;
        admin.close().await?;
        Ok(TestDatabase {
            url: database_url(admin_url, &name),
            place: Place::Postgres {
                admin_url: admin_url.to_string(),
                name,
            },
        })
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self.place, Place::Postgres { .. })
    }

    /// A PostgreSQL outage, as clients see it: every open connection to this database is
    /// cut and new ones are refused (`refuse = true`), until called again with `false`.
    ///
    /// # Panics
    /// On a SQLite database, which has no server to take away.
    pub async fn set_outage(&self, refuse: bool) -> Result<(), sqlx::Error> {
        let Place::Postgres { admin_url, name } = &self.place else {
            panic!("an outage needs a PostgreSQL database");
        };
        let mut admin = PgConnection::connect(admin_url).await?;
        sqlx::raw_sql(&format!(
            "ALTER DATABASE {name} ALLOW_CONNECTIONS {}",
            !refuse
        ))
        .execute(&mut admin)
        .await?;
        if refuse {
            sqlx::query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
            )
            .bind(name)
            .execute(&mut admin)
            .await?;
        }
        admin.close().await
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        match &self.place {
            Place::File(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut name = path.clone().into_os_string();
                    name.push(suffix);
                    let _ = std::fs::remove_file(name);
                }
            }
            Place::Postgres { admin_url, name } => drop_postgres_database(admin_url, name),
        }
    }
}

/// The admin URL of the PostgreSQL that tests use (`STOLIK_TEST_POSTGRES`, or the local one).
pub fn postgres_admin_url() -> String {
    std::env::var("STOLIK_TEST_POSTGRES").unwrap_or_else(|_| DEFAULT_POSTGRES.to_string())
}

/// Whether PostgreSQL answers at `admin_url` within five seconds, and why not.
pub async fn postgres_answers(admin_url: &str) -> Result<(), String> {
    let attempt = tokio::time::timeout(Duration::from_secs(5), PgConnection::connect(admin_url));
    match attempt.await {
        Ok(Ok(conn)) => {
            let _ = conn.close().await;
            Ok(())
        }
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("timed out after 5 s".to_string()),
    }
}

/// The admin URL, for a test that needs PostgreSQL.
///
/// # Panics
/// When PostgreSQL does not answer: such a test runs only when asked for, and then it must not
/// pass without having run.
pub async fn postgres_admin() -> String {
    let admin_url = postgres_admin_url();
    if let Err(failure) = postgres_answers(&admin_url).await {
        panic!(
            "this test needs PostgreSQL, which is not reachable at {admin_url} ({failure}); \
             set STOLIK_TEST_POSTGRES to an admin URL"
        );
    }
    admin_url
}

/// Drops a test database from any context: `Drop` cannot await and may run while the test's
/// runtime is unwinding, so the work gets a runtime of its own on its own thread.
fn drop_postgres_database(admin_url: &str, name: &str) {
    let admin_url = admin_url.to_string();
    let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
    let dropped = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime for cleanup");
        runtime.block_on(async {
            let mut admin = PgConnection::connect(&admin_url).await?;
            sqlx::raw_sql(&sql).execute(&mut admin).await?;
            admin.close().await
        })
    })
    .join();
    if !matches!(dropped, Ok(Ok(()))) {
        eprintln!("warning: could not drop test database {name}");
    }
}

/// Swaps the database name at the end of an admin URL, keeping any query string.
fn database_url(admin_url: &str, name: &str) -> String {
    let (base, query) = match admin_url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (admin_url, None),
    };
    let authority_end = base.find("://").map_or(0, |i| i + 3);
    let root = match base[authority_end..].find('/') {
        Some(slash) => &base[..authority_end + slash],
        None => base,
    };
    match query {
        Some(query) => format!("{root}/{name}?{query}"),
        None => format!("{root}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::database_url;

    #[test]
    fn test_database_urls_swap_only_the_database_name() {
        assert_eq!(
            database_url("postgres://postgres@127.0.0.1:5432/postgres", "t1"),
            "postgres://postgres@127.0.0.1:5432/t1"
        );
        assert_eq!(
            database_url("postgres://u:p@h/db?sslmode=disable", "t1"),
            "postgres://u:p@h/t1?sslmode=disable"
        );
        assert_eq!(
            database_url("postgres://h:5432", "t1"),
            "postgres://h:5432/t1"
        );
    }
}
