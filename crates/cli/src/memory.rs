//! The machine's free memory, to refuse a table the machine cannot hold before the tables'
//! own fallible allocation is even tried: an allocation the system grants (Linux overcommits)
//! may still not fit in memory once it is written, and then the kernel kills the program.

use crate::cells::thousands;
use crate::CliError;

/// The memory the system can give without swapping, in MiB (`MemAvailable` of
/// `/proc/meminfo`; `None` where there is no such file or line).
pub fn available_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_available_kib(&text).map(|kib| kib / 1024)
}

/// The `MemAvailable:` figure of a `/proc/meminfo` text, in KiB.
fn mem_available_kib(meminfo: &str) -> Option<u64> {
    meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Refuses a table of `mib` MiB (asked for by `option`) larger than the memory available.
pub fn check_table(option: &str, mib: usize) -> Result<(), CliError> {
    check_table_against(option, mib, available_mib())
}

fn check_table_against(option: &str, mib: usize, available: Option<u64>) -> Result<(), CliError> {
    match available {
        Some(free) if mib as u64 > free => Err(CliError::Usage(format!(
            "{option} {mib}: a table of {} MiB does not fit in the {} MiB of memory this \
             machine has available; ask for a smaller table",
            thousands(mib as u64),
            thousands(free)
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_available_is_read_from_its_line() {
        let text = "MemTotal:       24567892 kB\nMemFree:         1234 kB\n\
                    MemAvailable:   20480000 kB\nBuffers: 1 kB\n";
        assert_eq!(mem_available_kib(text), Some(20_480_000));
        assert_eq!(mem_available_kib("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn a_table_larger_than_the_free_memory_is_refused_naming_both() {
        let Err(CliError::Usage(msg)) = check_table_against("--tt", 40_000, Some(20_000)) else {
            panic!("a table over the free memory is a usage error");
        };
        assert!(
            msg.contains("--tt 40000") && msg.contains("20,000 MiB"),
            "{msg}"
        );
        assert!(check_table_against("--tt", 64, Some(20_000)).is_ok());
        // Where the free memory is unknown, the allocation itself decides.
        assert!(check_table_against("--tt", 40_000, None).is_ok());
    }
}
