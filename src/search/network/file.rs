//! `Network`: a quantised network read from a `.mhn` file (docs/network.md, "Network file").
//! Every way a file can be wrong is one line of error, and a refused file changes nothing.

use super::inputs::InputLayout;
use crate::core::{MAX_SIZE, MIN_SIZE};
use std::path::Path;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"MENHIRNN";
/// The one version this engine reads.
pub const VERSION: u16 = 1;
/// The widest hidden layer an accumulator holds (it is a fixed array: no allocation in search).
pub const MAX_HIDDEN: usize = 512;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 8;
/// The deepest stack inputs a file may have.
pub const MAX_DEPTH: usize = 16;
/// The i16 accumulator's limit.
const ACCUMULATOR_LIMIT: i64 = i16::MAX as i64;

/// A network of one board size, its weights as the engine's integer inference uses them.
#[derive(Clone, Debug)]
pub struct Network {
    /// Inputs, with the size and stack depth.
    pub layout: InputLayout,
    /// Hidden units per view, H.
    pub hidden: usize,
    /// Output buckets, K.
    pub buckets: usize,
    /// The accumulator's scale (a hidden value of QA is 1.0).
    pub qa: i32,
    /// The output weights' scale.
    pub qb: i32,
    /// Centi-flats per unit of output.
    pub scale: i32,
    /// The residual kind: the output corrects the linear evaluation (added to it) instead of
    /// standing alone.
    pub residual: bool,
    /// W1, input-major: the H weights of each input in a row.
    pub input_weights: Vec<i16>,
    /// b1.
    pub input_bias: Vec<i16>,
    /// W2, bucket-major, the side to move's half first.
    pub output_weights: Vec<i16>,
    /// b2.
    pub output_bias: Vec<i32>,
    /// The text header (architecture, quantisation, data, command).
    pub header: String,
}

/// Reads little-endian fields off the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        if self.bytes.len() < n {
            return Err(format!("truncated network file: it ends inside {what}"));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, String> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn i16(&mut self, what: &str) -> Result<i16, String> {
        Ok(self.u16(what)? as i16)
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, n: usize, what: &str) -> Result<Vec<i16>, String> {
        let bytes = self.take(n * 2, what)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect())
    }

    fn i32s(&mut self, n: usize, what: &str) -> Result<Vec<i32>, String> {
        let bytes = self.take(n * 4, what)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}

impl Network {
    /// Parses a network file's bytes.
    pub fn parse(bytes: &[u8]) -> Result<Network, String> {
        let mut r = Reader { bytes };
        if r.take(8, "the magic").ok() != Some(MAGIC.as_slice()) {
            return Err("not a Menhir network file (it does not start with MENHIRNN)".into());
        }
        let version = r.u16("the version")?;
        if version != VERSION {
            return Err(format!(
                "network file version {version}: this engine reads version {VERSION}"
            ));
        }
        let text_len = r.u32("the header length")? as usize;
        let header = std::str::from_utf8(r.take(text_len, "the text header")?)
            .map_err(|_| "the network file's text header is not UTF-8".to_string())?
            .to_string();
        let size = r.u8("the board size")? as usize;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!(
                "network file for board size {size} (sizes {MIN_SIZE} to {MAX_SIZE} exist)"
            ));
        }
        let depth = r.u8("the stack depth")? as usize;
        let hidden = r.u16("the hidden width")? as usize;
        let buckets = r.u8("the bucket count")? as usize;
        let residual = match r.u8("the kind")? {
            0 => false,
            1 => true,
            kind => return Err(format!("network file of kind {kind} (0 alone, 1 residual)")),
        };
        let (qa, qb, scale) = (r.i16("QA")?, r.i16("QB")?, r.i16("SCALE")?);
        let inputs = r.u32("the input count")? as usize;
        if depth > MAX_DEPTH
            || hidden == 0
            || !hidden.is_multiple_of(16)
            || hidden > MAX_HIDDEN
            || !(1..=MAX_BUCKETS).contains(&buckets)
            || qa <= 0
            || qb <= 0
            || scale <= 0
        {
            return Err(format!(
                "network file shape not supported: depth {depth} (at most {MAX_DEPTH}), hidden \
                 {hidden} (a multiple of 16 up to {MAX_HIDDEN}), buckets {buckets} (1 to \
                 {MAX_BUCKETS}), QA {qa}, QB {qb}, SCALE {scale} (positive)"
            ));
        }
        let layout = InputLayout::new(size, depth);
        if inputs != layout.inputs() {
            return Err(format!(
                "network file has {inputs} inputs; a {size}x{size} network of depth {depth} has {}",
                layout.inputs()
            ));
        }
        let input_weights = r.i16s(inputs * hidden, "the input weights")?;
        let input_bias = r.i16s(hidden, "the input biases")?;
        let output_weights = r.i16s(buckets * 2 * hidden, "the output weights")?;
        let output_bias = r.i32s(buckets, "the output biases")?;
        if !r.bytes.is_empty() {
            return Err(format!(
                "network file has {} bytes after its last weight",
                r.bytes.len()
            ));
        }
        let network = Network {
            layout,
            hidden,
            buckets,
            qa: qa.into(),
            qb: qb.into(),
            scale: scale.into(),
            residual,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
            header,
        };
        network.check_overflow()?;
        Ok(network)
    }

    /// Reads and parses a network file; the error names the file.
    pub fn load(path: &Path) -> Result<Network, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Network::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The file's bytes (what `parse` reads back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(self.header.len() as u32).to_le_bytes());
        b.extend_from_slice(self.header.as_bytes());
        b.extend_from_slice(&[self.layout.size as u8, self.layout.depth as u8]);
        b.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        b.extend_from_slice(&[self.buckets as u8, u8::from(self.residual)]);
        for q in [self.qa, self.qb, self.scale] {
            b.extend_from_slice(&(q as i16).to_le_bytes());
        }
        b.extend_from_slice(&(self.layout.inputs() as u32).to_le_bytes());
        for w in self
            .input_weights
            .iter()
            .chain(&self.input_bias)
            .chain(&self.output_weights)
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for w in &self.output_bias {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// Refuses weights whose accumulator could leave the i16 range in some position.
    fn check_overflow(&self) -> Result<(), String> {
        let most = self.layout.most_active() as i64;
        for unit in 0..self.hidden {
            let largest = (0..self.layout.inputs())
                .map(|i| i64::from(self.input_weights[i * self.hidden + unit]).abs())
                .max()
                .unwrap_or(0);
            if i64::from(self.input_bias[unit]).abs() + most * largest > ACCUMULATOR_LIMIT {
                return Err(format!(
                    "network file's hidden unit {unit} could overflow the accumulator \
                     (weights up to {largest} over {most} active inputs)"
                ));
            }
        }
        let largest = self
            .output_weights
            .iter()
            .map(|w| i64::from(*w).abs())
            .max();
        for bias in &self.output_bias {
            let most = i64::from(*bias).abs()
                + 2 * self.hidden as i64 * i64::from(self.qa) * largest.unwrap_or(0);
            if most > i64::from(i32::MAX) {
                return Err(
                    "network file's output weights could overflow the i32 output".to_string(),
                );
            }
        }
        Ok(())
    }

    /// The board size.
    pub fn size(&self) -> usize {
        self.layout.size
    }

    /// The H weights of input `i`.
    #[inline]
    pub fn input_row(&self, i: usize) -> &[i16] {
        &self.input_weights[i * self.hidden..(i + 1) * self.hidden]
    }

    /// The output bucket of a position with `placements_left` placements before the game can
    /// end on flats.
    #[inline]
    pub fn bucket(&self, placements_left: usize) -> usize {
        (placements_left * self.buckets / (self.layout.full_reserve() + 1)).min(self.buckets - 1)
    }

    /// The evaluation in centi-flats, side to move's view, of two accumulators.
    #[inline]
    pub fn output(&self, side_to_move: &[i16], other: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let weights = &self.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let qa = self.qa as i16;
        let dot = |acc: &[i16], w: &[i16]| -> i32 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| i32::from(a.clamp(0, qa)) * i32::from(w))
                .sum::<i32>()
        };
        let out = self.output_bias[bucket]
            + dot(&side_to_move[..h], &weights[..h])
            + dot(&other[..h], &weights[h..]);
        // i64: out · SCALE can pass i32 for a large SCALE.
        (i64::from(out) * i64::from(self.scale) / i64::from(self.qa * self.qb)) as i32
    }
}
