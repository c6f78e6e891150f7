//! `prune`: search, solve and compare game-tree search algorithms from the command line. The
//! commands live in the library `prune_cli` (so that the fuzz targets reach the server's
//! request handling); this is the entry point.

fn main() -> std::process::ExitCode {
    prune_cli::run()
}
