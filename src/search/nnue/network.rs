//! A quantized network and its file: one hidden layer per perspective
//! (the feature transformer, shared by both), clipped ReLU, and one output
//! per bucket of positions (one bucket unless the file says more).
//!
//! File layout (little-endian), documented with the trainer in
//! `docs/nnue.md`:
//!
//! ```text
//! "GAMUTNET" | version u16 = 2 or 3 | id length u8 | game id
//! inputs u16 | hidden u16 | scale i32 | on classic u8 (version 2 and 3)
//! buckets u8 | bucket bounds u16 [buckets - 1] (version 3 only)
//! feature weights i16 [inputs][hidden] | feature biases i16 [hidden]
//! output weights i16 [buckets][2 * hidden] (side to move's half first)
//! output biases i32 [buckets]
//! ```
//!
//! The float network `y = w2 · [crelu(x_us W1 + b1), crelu(x_them W1 + b1)] + b2`,
//! with `crelu` clamping to [0, 1], is stored with W1 and b1 multiplied by
//! [`QA`] and w2 by [`QB`]; b2 by `QA * QB`. The evaluation is `y * scale`,
//! added to the game's classic evaluation when the file says "on classic"
//! (a network trained on what the classic evaluation leaves out).
//!
//! Output buckets: a position's bucket is the number of bounds at or below
//! its count of active features (the side to move's and the other's
//! together: in a game whose features are its pieces, the pieces on the
//! board), and w2, b2 are that bucket's. A network of one bucket is
//! written as version 2, as before buckets existed.

use super::kernels::dot_crelu;
use std::fmt;

/// The feature transformer's quantization: 1.0 is stored as 255.
pub const QA: i32 = 255;
/// The output layer's quantization: 1.0 is stored as 256.
pub const QB: i32 = 256;
/// The largest feature-transformer weight magnitude the trainer allows,
/// so that an accumulator of every feature of a full board fits in i16.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The first eight bytes of a network file.
pub const MAGIC: &[u8; 8] = b"GAMUTNET";
/// The network file version this code writes for a network of more than
/// one bucket; one of a single bucket is written as version 2 (the same
/// without the bucket fields), and version 1 (without "on classic") reads
/// too.
pub const VERSION: u16 = 3;

/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;

/// The bucket of a position with `count` active features (both halves
/// together): how many of the ascending `bounds` are at most `count`.
#[must_use]
pub fn bucket_of(bounds: &[u16], count: usize) -> usize {
    bounds
        .iter()
        .take_while(|&&b| usize::from(b) <= count)
        .count()
}

/// A network in integers, ready for inference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The game it evaluates.
    pub game: String,
    /// Input features per perspective.
    pub inputs: usize,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// Evaluation units per unit of the float output.
    pub scale: i32,
    /// Whether the output is added to the game's classic evaluation.
    pub on_classic: bool,
    /// `[inputs][hidden]`, times [`QA`].
    pub feature_weights: Vec<i16>,
    /// `[hidden]`, times [`QA`].
    pub feature_bias: Vec<i16>,
    /// The output buckets' bounds, ascending ([`bucket_of`]); empty for a
    /// network of one output.
    pub bounds: Vec<u16>,
    /// `[buckets][2 * hidden]`, the side to move's half first, times [`QB`].
    pub output_weights: Vec<i16>,
    /// `[buckets]`, times `QA * QB`.
    pub output_bias: Vec<i32>,
}

/// The same network in floats, as the trainer holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// The game it evaluates.
    pub game: String,
    /// Input features per perspective.
    pub inputs: usize,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// Evaluation units per unit of output.
    pub scale: i32,
    /// Whether the output is added to the game's classic evaluation.
    pub on_classic: bool,
    /// `[inputs][hidden]`.
    pub feature_weights: Vec<f32>,
    /// `[hidden]`.
    pub feature_bias: Vec<f32>,
    /// The output buckets' bounds, ascending ([`bucket_of`]); empty for a
    /// network of one output.
    pub bounds: Vec<u16>,
    /// `[buckets][2 * hidden]`, the side to move's half first.
    pub output_weights: Vec<f32>,
    /// `[buckets]`: each output's bias.
    pub output_bias: Vec<f32>,
}

/// Why a network file was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetError(pub String);

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

fn quantize(v: f32, q: i32) -> i16 {
    (v * q as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

impl FloatNetwork {
    /// The float network's output for the active features of the side to
    /// move and of the other side, in evaluation units.
    #[must_use]
    pub fn evaluate(&self, us: &[u16], them: &[u16]) -> f32 {
        let bucket = bucket_of(&self.bounds, us.len() + them.len());
        let mut y = self.output_bias[bucket];
        for (half, active) in [us, them].into_iter().enumerate() {
            let mut acc = self.feature_bias.clone();
            for &f in active {
                let row = &self.feature_weights[f as usize * self.hidden..][..self.hidden];
                acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
            let w = &self.output_weights[(2 * bucket + half) * self.hidden..][..self.hidden];
            y += acc
                .iter()
                .zip(w)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        y * self.scale as f32
    }

    /// The network in integers (see the module documentation).
    #[must_use]
    pub fn quantize(&self) -> Network {
        Network {
            game: self.game.clone(),
            inputs: self.inputs,
            hidden: self.hidden,
            scale: self.scale,
            on_classic: self.on_classic,
            feature_weights: self
                .feature_weights
                .iter()
                .map(|&w| quantize(w, QA))
                .collect(),
            feature_bias: self.feature_bias.iter().map(|&w| quantize(w, QA)).collect(),
            bounds: self.bounds.clone(),
            output_weights: self
                .output_weights
                .iter()
                .map(|&w| quantize(w, QB))
                .collect(),
            output_bias: self
                .output_bias
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }
}

/// The game id a network file's header names.
pub fn game_of(bytes: &[u8]) -> Result<String, NetError> {
    if bytes.len() < 11 || &bytes[..8] != MAGIC {
        return Err(NetError(
            "not a gamut network file (no GAMUTNET header)".into(),
        ));
    }
    let id_len = bytes[10] as usize;
    let id = bytes
        .get(11..11 + id_len)
        .ok_or_else(|| NetError("the network file ends inside its header".into()))?;
    Ok(String::from_utf8_lossy(id).into_owned())
}

/// The most bytes a network file's header takes: magic, version, id
/// length, an id of up to 255 bytes, and the version 3 fields.
pub const MAX_HEADER: usize = 11 + 255 + 10 + 2 * (MAX_BUCKETS - 1);

/// What a network file's header says, and the file size it implies.
struct Header {
    /// Bytes of the fields after the game id (8 in version 1, 9 in
    /// version 2, 10 and the bounds in version 3).
    fields: usize,
    /// Offset of those fields: just after the game id.
    start: usize,
    hidden: usize,
    scale: i32,
    on_classic: bool,
    bounds: Vec<u16>,
    /// 16-bit words of weights and biases.
    words: usize,
    /// The whole file's size, in bytes.
    file_len: usize,
}

impl Header {
    /// Reads the header at the start of `bytes` (the whole file or only
    /// its first bytes) for game `game` with `inputs` features.
    fn parse(bytes: &[u8], game: &str, inputs: usize) -> Result<Header, NetError> {
        let bad = |why: String| Err(NetError(why));
        if bytes.len() < 11 || &bytes[..8] != MAGIC {
            return bad("not a gamut network file (no GAMUTNET header)".into());
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if !(1..=VERSION).contains(&version) {
            return bad(format!(
                "network format version {version}, this build reads 1 to {VERSION}"
            ));
        }
        let id_len = bytes[10] as usize;
        let Some(id) = bytes.get(11..11 + id_len) else {
            return bad("the network file ends inside its header".into());
        };
        if id != game.as_bytes() {
            return bad(format!(
                "the network is for {}, not {game}",
                String::from_utf8_lossy(id)
            ));
        }
        let start = 11 + id_len;
        let rest = &bytes[start..];
        let ends = || bad("the network file ends inside its header".into());
        let mut fields = if version == 1 { 8 } else { 9 };
        if rest.len() < fields {
            return ends();
        }
        let n_in = u16::from_le_bytes([rest[0], rest[1]]) as usize;
        let hidden = u16::from_le_bytes([rest[2], rest[3]]) as usize;
        let scale = i32::from_le_bytes([rest[4], rest[5], rest[6], rest[7]]);
        if n_in != inputs {
            return bad(format!(
                "the network has {n_in} inputs, {game} has {inputs}"
            ));
        }
        let on_classic = match rest.get(8).filter(|_| version > 1) {
            None | Some(0) => false,
            Some(1) => true,
            Some(b) => return bad(format!("the network's base is {b}, not 0 or 1")),
        };
        if hidden == 0 || scale <= 0 {
            return bad(format!(
                "hidden size {hidden} and scale {scale} must be positive"
            ));
        }
        let mut bounds = Vec::new();
        if version == 3 {
            let Some(&buckets) = rest.get(9) else {
                return ends();
            };
            let buckets = usize::from(buckets);
            if !(2..=MAX_BUCKETS).contains(&buckets) {
                return bad(format!(
                    "the network has {buckets} output buckets, not 2 to {MAX_BUCKETS}"
                ));
            }
            fields = 10 + 2 * (buckets - 1);
            let Some(b) = rest.get(10..fields) else {
                return ends();
            };
            bounds = b
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            if bounds.windows(2).any(|w| w[0] >= w[1]) {
                return bad(format!("the bucket bounds {bounds:?} do not ascend"));
            }
        }
        let buckets = bounds.len() + 1;
        let words = inputs * hidden + hidden + 2 * hidden * buckets;
        Ok(Header {
            fields,
            start,
            hidden,
            scale,
            on_classic,
            bounds,
            words,
            file_len: start + fields + 2 * words + 4 * buckets,
        })
    }

    /// The error for a file of `len` bytes.
    fn wrong_size(&self, len: u64) -> NetError {
        NetError(format!(
            "the network file has {} bytes after its header, {} expected",
            len.saturating_sub(self.start as u64),
            self.file_len - self.start
        ))
    }
}

/// Reads a network file of `len` bytes from `input` for game `game` with
/// `inputs` features: the header first, and the rest only if the file's
/// size is the one the header implies, so a file of the wrong size is
/// refused after reading at most [`MAX_HEADER`] bytes.
pub fn read_network(
    input: &mut impl std::io::Read,
    len: u64,
    game: &str,
    inputs: usize,
) -> Result<Network, NetError> {
    use std::io::Read;
    let io = |e: std::io::Error| NetError(format!("cannot read it: {e}"));
    let mut bytes = Vec::with_capacity(MAX_HEADER);
    input
        .by_ref()
        .take(MAX_HEADER.min(len as usize) as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let h = Header::parse(&bytes, game, inputs)?;
    if len != h.file_len as u64 {
        return Err(h.wrong_size(len));
    }
    if bytes.len() > h.file_len {
        return Err(h.wrong_size(bytes.len() as u64));
    }
    bytes.reserve_exact(h.file_len - bytes.len());
    input
        .by_ref()
        .take((h.file_len - bytes.len()) as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() != h.file_len {
        return Err(h.wrong_size(bytes.len() as u64));
    }
    Network::from_bytes(&bytes, game, inputs)
}

/// Reads the network file at `path` for game `game` with `inputs`
/// features ([`read_network`]: the header first, the rest only if the
/// file's size is the one it implies); an error names the file.
pub fn read_network_file(
    path: &std::path::Path,
    game: &str,
    inputs: usize,
) -> Result<Network, String> {
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    let len = file.metadata().map_err(cannot)?.len();
    read_network(&mut file, len, game, inputs).map_err(|e| format!("{}: {}", path.display(), e.0))
}

impl Network {
    /// The file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        let version: u16 = if self.bounds.is_empty() { 2 } else { VERSION };
        b.extend_from_slice(&version.to_le_bytes());
        b.push(self.game.len() as u8);
        b.extend_from_slice(self.game.as_bytes());
        b.extend_from_slice(&(self.inputs as u16).to_le_bytes());
        b.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        b.extend_from_slice(&self.scale.to_le_bytes());
        b.push(u8::from(self.on_classic));
        if !self.bounds.is_empty() {
            b.push((self.bounds.len() + 1) as u8);
            for bound in &self.bounds {
                b.extend_from_slice(&bound.to_le_bytes());
            }
        }
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for bias in &self.output_bias {
            b.extend_from_slice(&bias.to_le_bytes());
        }
        b
    }

    /// Reads a network file for game `game` with `inputs` features,
    /// checking every length.
    pub fn from_bytes(bytes: &[u8], game: &str, inputs: usize) -> Result<Network, NetError> {
        let h = Header::parse(bytes, game, inputs)?;
        if bytes.len() != h.file_len {
            return Err(h.wrong_size(bytes.len() as u64));
        }
        let (header, hidden, scale, on_classic) = (h.fields, h.hidden, h.scale, h.on_classic);
        let bounds = h.bounds;
        let rest = &bytes[h.start..];
        let words = h.words;
        let mut w: Vec<i16> = rest[header..header + 2 * words]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let output_weights = w.split_off(inputs * hidden + hidden);
        let feature_bias = w.split_off(inputs * hidden);
        let output_bias = rest[header + 2 * words..]
            .chunks_exact(4)
            .map(|o| i32::from_le_bytes([o[0], o[1], o[2], o[3]]))
            .collect();
        Ok(Network {
            game: game.to_string(),
            inputs,
            hidden,
            scale,
            on_classic,
            feature_weights: w,
            feature_bias,
            bounds,
            output_weights,
            output_bias,
        })
    }

    /// The float network this one quantizes: every weight divided by its
    /// quantization (the inverse of [`FloatNetwork::quantize`], which gives
    /// this network back), for a trainer that starts from a network file.
    #[must_use]
    pub fn dequantize(&self) -> FloatNetwork {
        let float = |w: &[i16], q: i32| w.iter().map(|&w| f32::from(w) / q as f32).collect();
        FloatNetwork {
            game: self.game.clone(),
            inputs: self.inputs,
            hidden: self.hidden,
            scale: self.scale,
            on_classic: self.on_classic,
            feature_weights: float(&self.feature_weights, QA),
            feature_bias: float(&self.feature_bias, QA),
            bounds: self.bounds.clone(),
            output_weights: float(&self.output_weights, QB),
            output_bias: self
                .output_bias
                .iter()
                .map(|&b| (f64::from(b) / f64::from(QA * QB)) as f32)
                .collect(),
        }
    }

    /// The feature transformer's row of feature `f`.
    #[must_use]
    pub fn row(&self, f: u16) -> &[i16] {
        &self.feature_weights[f as usize * self.hidden..][..self.hidden]
    }

    /// The bucket of a position with `count` active features, both halves
    /// together ([`bucket_of`]).
    #[must_use]
    pub fn bucket(&self, count: usize) -> usize {
        bucket_of(&self.bounds, count)
    }

    /// The output of `bucket` for accumulators of the side to move (`us`)
    /// and the other side, in evaluation units.
    #[must_use]
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let w = &self.output_weights[2 * h * bucket..][..2 * h];
        let sum = dot_crelu(us, &w[..h], QA as i16) + dot_crelu(them, &w[h..], QA as i16);
        let y = i64::from(sum + self.output_bias[bucket]) * i64::from(self.scale);
        (y / i64::from(QA * QB)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// A reader of `len` zero bytes after `head` that counts what is taken.
    struct Counting<'a> {
        head: &'a [u8],
        len: u64,
        taken: u64,
    }

    impl Read for Counting<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let left = self.len - self.taken;
            let n = (buf.len() as u64).min(left) as usize;
            for (i, b) in buf[..n].iter_mut().enumerate() {
                let at = self.taken as usize + i;
                *b = self.head.get(at).copied().unwrap_or(0);
            }
            self.taken += n as u64;
            Ok(n)
        }
    }

    fn small() -> Network {
        let (inputs, hidden) = (6, 4);
        Network {
            game: "epaminondas".into(),
            inputs,
            hidden,
            scale: 400,
            on_classic: false,
            feature_weights: (0..inputs * hidden).map(|i| i as i16).collect(),
            feature_bias: vec![3; hidden],
            bounds: Vec::new(),
            output_weights: vec![-2; 2 * hidden],
            output_bias: vec![9],
        }
    }

    /// [`small`] with three output buckets.
    fn bucketed() -> Network {
        let mut net = small();
        net.bounds = vec![2, 5];
        net.output_weights = (0..3 * 2 * net.hidden).map(|i| i as i16 - 7).collect();
        net.output_bias = vec![9, -4, 1 << 20];
        net
    }

    /// A network of one bucket is written as version 2, one of more as
    /// version 3, and each reads back as it was.
    #[test]
    fn a_network_reads_back_as_written_with_and_without_buckets() {
        for net in [small(), bucketed()] {
            let bytes = net.to_bytes();
            let version = u16::from_le_bytes([bytes[8], bytes[9]]);
            assert_eq!(version, if net.bounds.is_empty() { 2 } else { 3 });
            assert_eq!(Network::from_bytes(&bytes, "epaminondas", 6).unwrap(), net);
            assert_eq!(net.dequantize().quantize(), net);
        }
    }

    /// Bounds that do not ascend, a bucket count out of range and a file
    /// cut inside its bounds are refused.
    #[test]
    fn bad_bucket_fields_are_refused() {
        let bytes = bucketed().to_bytes();
        let at = 11 + "epaminondas".len() + 9;
        let mut count = bytes.clone();
        for n in [0, 1, 17] {
            count[at] = n;
            let e = Network::from_bytes(&count, "epaminondas", 6).unwrap_err();
            assert!(e.0.contains("output buckets"), "{n}: {e}");
        }
        let mut order = bytes.clone();
        order[at + 3] = 1; // the second bound, 5 → 1, below the first
        let e = Network::from_bytes(&order, "epaminondas", 6).unwrap_err();
        assert!(e.0.contains("do not ascend"), "{e}");
        let e = Network::from_bytes(&bytes[..at + 2], "epaminondas", 6).unwrap_err();
        assert!(e.0.contains("ends inside its header"), "{e}");
    }

    /// A position's bucket counts the bounds at or below its features.
    #[test]
    fn the_bucket_counts_the_bounds_reached() {
        let net = bucketed();
        let buckets: Vec<usize> = (0..8).map(|c| net.bucket(c)).collect();
        assert_eq!(buckets, [0, 0, 1, 1, 1, 2, 2, 2]);
        assert_eq!(small().bucket(1000), 0);
    }

    /// Quantizing the dequantized network gives it back, at the extremes
    /// of every field too.
    #[test]
    fn dequantizing_is_the_inverse_of_quantizing() {
        let mut net = small();
        net.feature_weights[0] = i16::MIN;
        net.feature_weights[1] = i16::MAX;
        net.feature_bias[0] = -505;
        net.output_weights[0] = i16::MAX;
        net.output_weights[1] = i16::MIN;
        for bias in [0, 9, -65_279, 1 << 22, -(1 << 22)] {
            net.output_bias = vec![bias];
            assert_eq!(net.dequantize().quantize(), net, "output bias {bias}");
        }
    }

    #[test]
    fn a_file_of_the_wrong_size_is_refused_after_reading_its_header() {
        let bytes = small().to_bytes();
        for len in [3 << 30, bytes.len() as u64 + 1, bytes.len() as u64 - 1] {
            let mut file = Counting {
                head: &bytes,
                len,
                taken: 0,
            };
            let e = read_network(&mut file, len, "epaminondas", 6).unwrap_err();
            assert!(e.0.contains("expected"), "{e}");
            assert!(
                file.taken <= MAX_HEADER as u64,
                "{len}: read {}",
                file.taken
            );
        }
        let len = bytes.len() as u64;
        let mut file = Counting {
            head: &bytes,
            len,
            taken: 0,
        };
        assert_eq!(
            read_network(&mut file, len, "epaminondas", 6).unwrap(),
            small()
        );
        // A file that grows after its size was taken is refused too.
        let mut longer = Counting {
            head: &bytes,
            len: len + 10,
            taken: 0,
        };
        assert!(read_network(&mut longer, len, "epaminondas", 6).is_err());
    }
}
