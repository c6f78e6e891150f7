//! Probes the compiler for the x86-64-v4 kernel: AVX-512's intrinsics and target features are
//! stable from Rust 1.89, so `cfg(prune_avx512)` is set where the compiler is that recent and
//! the kernel is compiled; the workspace's minimum supported Rust version builds without it
//! (the other kernels are the same either way).

use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(prune_avx512)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    // `rustc 1.95.0 (...)`: the minor version, for a 1.x compiler.
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok());
    let minor = version.as_deref().and_then(|v| {
        let mut parts = v.split_whitespace().nth(1)?.split('.');
        let major: u32 = parts.next()?.parse().ok()?;
        let minor: u32 = parts.next()?.parse().ok()?;
        (major == 1).then_some(minor)
    });
    if minor.is_some_and(|minor| minor >= 89) {
        println!("cargo::rustc-cfg=prune_avx512");
    }
}
