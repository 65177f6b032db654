// sqlx::migrate! copies the SQL files into the binary at compile time, but cargo does not
// know about them: without this a new or edited migration would not trigger a rebuild.
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
