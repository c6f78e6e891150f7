//! The pattern-weights file: a small versioned format with a checksum, read with an error
//! that says where it is malformed ([`PatternWeights::from_bytes`], [`PatternWeights::to_bytes`]).

use super::{Classes, PatternWeights, PhaseWeights, PHASES};

/// Why a weights file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Not a prune weights file at all.
    #[error("not a prune pattern-weights file (bad magic bytes)")]
    BadMagic,
    /// A version this build cannot read.
    #[error("weights file version {found}, this build reads version {expected}")]
    Version {
        /// The file's version.
        found: u32,
        /// The version this build writes and reads.
        expected: u32,
    },
    /// The checksum does not match: the file is damaged.
    #[error("weights file is corrupt: checksum {found:016x}, expected {expected:016x}")]
    Checksum {
        /// The checksum of the bytes read.
        found: u64,
        /// The checksum written in the file.
        expected: u64,
    },
    /// The contents end early or do not fit the patterns of this build.
    #[error("weights file is malformed at byte {offset}: {what}")]
    Malformed {
        /// Where, counting from the start of the payload.
        offset: usize,
        /// What was wrong.
        what: String,
    },
}

/// The magic bytes that open a weights file.
const MAGIC: &[u8; 8] = b"PRUNEPAT";
/// The format version (bump on any change of the format or of [`FAMILIES`](super::FAMILIES)).
pub const WEIGHTS_VERSION: u32 = 1;

/// FNV-1a, 64 bits: the checksum of the payload.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A reader of the payload that reports where it failed.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn malformed(&self, what: &str) -> WeightsError {
        WeightsError::Malformed {
            offset: self.at,
            what: what.to_string(),
        }
    }

    fn varint(&mut self) -> Result<u64, WeightsError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self
                .bytes
                .get(self.at)
                .ok_or_else(|| self.malformed("the data ends early"))?;
            self.at += 1;
            v |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.malformed("a number is too long"))
    }

    /// A weight: an `i16` other than `i16::MIN`, which has no negation for the configurations
    /// with the colours swapped (the trainer keeps weights within ±32,000).
    fn weight(&mut self) -> Result<i16, WeightsError> {
        let z = self.varint()?;
        let v = (z >> 1) as i64 ^ -((z & 1) as i64);
        i16::try_from(v)
            .ok()
            .filter(|&w| w != i16::MIN)
            .ok_or_else(|| self.malformed("a weight is out of range"))
    }
}

fn zigzag(v: i16) -> u64 {
    let v = i64::from(v);
    ((v << 1) ^ (v >> 63)) as u64
}

impl PatternWeights {
    /// The file's bytes: magic, version, payload length, checksum, payload. The payload holds
    /// the provenance text, the numbers of phases and classes, then per phase the biases and the
    /// class weights as zigzag varints, a run of zero weights written as 0 and its length.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::new();
        put_varint(&mut payload, self.provenance.len() as u64);
        payload.extend_from_slice(self.provenance.as_bytes());
        put_varint(&mut payload, self.phases.len() as u64);
        put_varint(&mut payload, Classes::get().count as u64);
        for phase in &self.phases {
            for &b in &phase.bias {
                put_varint(&mut payload, zigzag(b));
            }
            let mut i = 0;
            while i < phase.classes.len() {
                if phase.classes[i] == 0 {
                    let run = phase.classes[i..].iter().take_while(|&&w| w == 0).count();
                    put_varint(&mut payload, 0);
                    put_varint(&mut payload, run as u64);
                    i += run;
                } else {
                    put_varint(&mut payload, zigzag(phase.classes[i]));
                    i += 1;
                }
            }
        }
        let mut out = Vec::with_capacity(payload.len() + 28);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&WEIGHTS_VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&checksum(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a weights file written by [`PatternWeights::to_bytes`], checking its magic,
    /// version, length, checksum and that it fits this build's patterns.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        if bytes.len() < 28 || &bytes[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != WEIGHTS_VERSION {
            return Err(WeightsError::Version {
                found: version,
                expected: WEIGHTS_VERSION,
            });
        }
        let (length, expected) = (word(12), word(20));
        let payload = &bytes[28..];
        if payload.len() as u64 != length {
            return Err(WeightsError::Malformed {
                offset: 0,
                what: format!(
                    "the payload has {} bytes, the header says {length}",
                    payload.len()
                ),
            });
        }
        let found = checksum(payload);
        if found != expected {
            return Err(WeightsError::Checksum { found, expected });
        }
        let mut r = Reader {
            bytes: payload,
            at: 0,
        };
        let text_len = r.varint()? as usize;
        let text = payload
            .get(r.at..r.at.saturating_add(text_len))
            .ok_or_else(|| r.malformed("the provenance text ends early"))?;
        let provenance = String::from_utf8(text.to_vec())
            .map_err(|_| r.malformed("the provenance text is not UTF-8"))?;
        r.at += text_len;
        let phases = r.varint()?;
        if phases != PHASES as u64 {
            return Err(r.malformed(&format!("{phases} phases, this build has {PHASES}")));
        }
        let count = Classes::get().count;
        let classes = r.varint()?;
        if classes != count as u64 {
            return Err(r.malformed(&format!(
                "{classes} pattern classes, this build has {count}"
            )));
        }
        let mut out = Vec::with_capacity(PHASES);
        for _ in 0..PHASES {
            let mut phase = PhaseWeights::zero();
            for b in phase.bias.iter_mut() {
                *b = r.weight()?;
            }
            let mut i = 0;
            while i < count {
                let w = r.weight()?;
                if w == 0 {
                    let run = r.varint()? as usize;
                    if run == 0 || run > count - i {
                        return Err(r.malformed("a run of zero weights is too long"));
                    }
                    i += run;
                } else {
                    phase.classes[i] = w;
                    i += 1;
                }
            }
            out.push(phase);
        }
        if r.at != payload.len() {
            return Err(r.malformed("data after the last phase"));
        }
        Ok(PatternWeights {
            provenance,
            phases: out,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_weights;
    use super::*;

    #[test]
    fn weights_round_trip_through_bytes() {
        let w = random_weights();
        let bytes = w.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), *w);
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = random_weights().to_bytes();
        assert_eq!(
            PatternWeights::from_bytes(b"hello"),
            Err(WeightsError::BadMagic)
        );
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(matches!(
            PatternWeights::from_bytes(&flipped),
            Err(WeightsError::Checksum { .. })
        ));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(matches!(
            PatternWeights::from_bytes(&version),
            Err(WeightsError::Version { found: 9, .. })
        ));
        assert!(matches!(
            PatternWeights::from_bytes(&bytes[..bytes.len() - 3]),
            Err(WeightsError::Malformed { .. })
        ));
    }

    #[test]
    fn a_weight_without_a_negation_is_refused() {
        // Found while writing the `weights_file` fuzz target: a class weight of -32768 (zigzag
        // varint `ff ff 03`) was read, and negating it for the colour-swapped configurations
        // overflowed in `PatternEval::new`.
        let mut w = PatternWeights::zero("");
        w.phases[0].classes[1] = i16::MIN;
        let bytes = w.to_bytes();
        assert!(bytes.windows(3).any(|b| b == b"\xff\xff\x03"));
        assert!(matches!(
            PatternWeights::from_bytes(&bytes),
            Err(WeightsError::Malformed { what, .. }) if what == "a weight is out of range"
        ));
        // The most negative weight that can be negated still reads.
        w.phases[0].classes[1] = -i16::MAX;
        assert_eq!(PatternWeights::from_bytes(&w.to_bytes()).as_ref(), Ok(&w));
    }
}
