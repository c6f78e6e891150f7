//! Builds the lab's report folders (`docs/lab`) into the binary, for `prune serve`: writes
//! `lab_files.rs`, a list of (path under docs/lab, bytes) made with `include_bytes!`.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    // Read when the script runs, not when it was compiled: a build script compiled in another
    // checkout of the repository would otherwise list that checkout's reports (or none).
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let lab: PathBuf = Path::new(&manifest).join("../../docs/lab");
    println!("cargo:rerun-if-changed={}", lab.display());
    let mut files = Vec::new();
    if let Ok(folders) = fs::read_dir(&lab) {
        for folder in folders.flatten() {
            let path = folder.path();
            if !path.is_dir() {
                continue;
            }
            println!("cargo:rerun-if-changed={}", path.display());
            for file in fs::read_dir(&path).into_iter().flatten().flatten() {
                let p = file.path();
                if p.is_file() {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    let mut out = String::from("/// The lab's report files: (folder/file, contents).\npub static LAB_FILES: &[(&str, &[u8])] = &[\n");
    for p in &files {
        let folder = p
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str());
        let name = p.file_name().and_then(|n| n.to_str());
        if let (Some(folder), Some(name)) = (folder, name) {
            let absolute = fs::canonicalize(p).expect("a file that was just listed");
            out.push_str(&format!(
                "    ({:?}, include_bytes!({:?})),\n",
                format!("{folder}/{name}"),
                absolute.display().to_string()
            ));
        }
    }
    out.push_str("];\n");
    let dest =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lab_files.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");
}
