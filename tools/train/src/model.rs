//! The model the trainer fits: its parameters (one feature transformer,
//! an output per bucket), its forward pass, the batches it reads from a
//! training set and its loss.

use crate::{Set, Training};
use candle_core::{Device, Tensor, Var};
use gamut_search::nnue::network::{bucket_of, FloatNetwork};
use rand::rngs::StdRng;
use rand::Rng;

/// The trainable parameters, and the output buckets' bounds.
pub(crate) struct Model {
    pub(crate) w1: Var,
    pub(crate) b1: Var,
    /// `[2 * hidden][buckets]`: a column per bucket.
    pub(crate) w2: Var,
    /// `[buckets]`.
    pub(crate) b2: Var,
    pub(crate) bounds: Vec<u16>,
}

/// `n` numbers drawn uniformly from (−a, a).
fn uniform(rng: &mut StdRng, n: usize, a: f32) -> Vec<f32> {
    (0..n).map(|_| rng.gen_range(-a..a)).collect()
}

impl Model {
    /// New weights for `hidden` units and the buckets of `bounds`.
    pub(crate) fn new(
        inputs: usize,
        hidden: usize,
        bounds: Vec<u16>,
        rng: &mut StdRng,
        dev: &Device,
    ) -> candle_core::Result<Model> {
        let buckets = bounds.len() + 1;
        let w1 = uniform(rng, inputs * hidden, 0.1);
        let w2 = uniform(rng, 2 * hidden, 1.0 / (2.0 * hidden as f32).sqrt());
        let w2: Vec<f32> = w2
            .iter()
            .flat_map(|&w| std::iter::repeat_n(w, buckets))
            .collect();
        Ok(Model {
            w1: Var::from_tensor(&Tensor::from_vec(w1, (inputs, hidden), dev)?)?,
            b1: Var::from_tensor(&Tensor::full(0.05f32, hidden, dev)?)?,
            w2: Var::from_tensor(&Tensor::from_vec(w2, (2 * hidden, buckets), dev)?)?,
            b2: Var::from_tensor(&Tensor::zeros(buckets, candle_core::DType::F32, dev)?)?,
            bounds,
        })
    }

    /// The parameters of a float network, widened to `hidden` units
    /// (new weights into the new units, none out of them) and, if it has
    /// one bucket and `bounds` says more, its output copied to every
    /// bucket: either way the model evaluates as the network does.
    pub(crate) fn from_float(
        net: &FloatNetwork,
        hidden: usize,
        bounds: Vec<u16>,
        rng: &mut StdRng,
        dev: &Device,
    ) -> candle_core::Result<Model> {
        let (h0, buckets) = (net.hidden, bounds.len() + 1);
        let mut w1 = Vec::with_capacity(net.inputs * hidden);
        for row in net.feature_weights.chunks_exact(h0) {
            w1.extend_from_slice(row);
            w1.extend(uniform(rng, hidden - h0, 0.1));
        }
        let mut b1 = net.feature_bias.clone();
        b1.resize(hidden, 0.05);
        // The file's outputs are [bucket][half][unit]; the model's w2 is
        // [half][unit][bucket].
        let from = net.output_bias.len();
        let mut w2 = vec![0f32; 2 * hidden * buckets];
        for half in 0..2 {
            for unit in 0..h0 {
                for b in 0..buckets {
                    let f = if from == 1 { 0 } else { b };
                    w2[(half * hidden + unit) * buckets + b] =
                        net.output_weights[(2 * f + half) * h0 + unit];
                }
            }
        }
        let b2: Vec<f32> = (0..buckets)
            .map(|b| net.output_bias[if from == 1 { 0 } else { b }])
            .collect();
        let var =
            |v: Vec<f32>, shape: &[usize]| Var::from_tensor(&Tensor::from_vec(v, shape, dev)?);
        Ok(Model {
            w1: var(w1, &[net.inputs, hidden])?,
            b1: var(b1, &[hidden])?,
            w2: var(w2, &[2 * hidden, buckets])?,
            b2: var(b2, &[buckets])?,
            bounds,
        })
    }

    /// The raw output (evaluation / scale) for dense inputs of the side to
    /// move and the other side, each position read by its bucket's output
    /// (`mask`: one-hot, a row per position).
    pub(crate) fn forward(
        &self,
        us: &Tensor,
        them: &Tensor,
        mask: &Tensor,
    ) -> candle_core::Result<Tensor> {
        let hidden = |x: &Tensor| -> candle_core::Result<Tensor> {
            x.matmul(self.w1.as_tensor())?
                .broadcast_add(self.b1.as_tensor())?
                .clamp(0f32, 1f32)
        };
        let h = Tensor::cat(&[hidden(us)?, hidden(them)?], 1)?;
        (h.matmul(self.w2.as_tensor())?
            .broadcast_add(self.b2.as_tensor())?
            * mask)?
            .sum(1)
    }

    pub(crate) fn float_network(
        &self,
        game: &str,
        scale: i32,
        on_classic: bool,
    ) -> candle_core::Result<FloatNetwork> {
        let w1 = self.w1.as_tensor();
        let (inputs, hidden) = w1.dims2()?;
        Ok(FloatNetwork {
            game: game.to_string(),
            inputs,
            hidden,
            scale,
            on_classic,
            feature_weights: w1.flatten_all()?.to_vec1()?,
            feature_bias: self.b1.as_tensor().to_vec1()?,
            bounds: self.bounds.clone(),
            output_weights: self
                .w2
                .as_tensor()
                .t()?
                .contiguous()?
                .flatten_all()?
                .to_vec1()?,
            output_bias: self.b2.as_tensor().to_vec1()?,
        })
    }
}

/// A batch: the dense inputs of the side to move and of the other side,
/// each position's bucket (one-hot rows), the classic evaluation in units
/// of the output (zeros without `--on-classic`), and the targets.
pub(crate) struct Batch {
    pub(crate) us: Tensor,
    pub(crate) them: Tensor,
    pub(crate) mask: Tensor,
    pub(crate) base: Tensor,
    pub(crate) target: Tensor,
    /// Each position's weight in the loss.
    pub(crate) weight: Tensor,
}

/// The dense inputs and the targets of positions `idx` of `set`.
pub(crate) fn batch(
    set: &Set,
    idx: &[usize],
    inputs: usize,
    bounds: &[u16],
    args: &Training,
    dev: &Device,
) -> candle_core::Result<Batch> {
    let b = idx.len();
    let buckets = bounds.len() + 1;
    let mut us = vec![0f32; b * inputs];
    let mut them = vec![0f32; b * inputs];
    let mut mask = vec![0f32; b * buckets];
    let mut target = Vec::with_capacity(b);
    let mut base = Vec::with_capacity(b);
    let mut weight = Vec::with_capacity(b);
    for (row, &i) in idx.iter().enumerate() {
        let (u, t) = set.sides(i);
        u.iter().for_each(|&f| us[row * inputs + f as usize] = 1.0);
        t.iter()
            .for_each(|&f| them[row * inputs + f as usize] = 1.0);
        mask[row * buckets + bucket_of(bounds, set.count(i))] = 1.0;
        target.push(set.target(i, args));
        base.push(set.bases[i] / args.scale as f32);
        weight.push(set.weights[i]);
    }
    Ok(Batch {
        us: Tensor::from_vec(us, (b, inputs), dev)?,
        them: Tensor::from_vec(them, (b, inputs), dev)?,
        mask: Tensor::from_vec(mask, (b, buckets), dev)?,
        base: Tensor::from_vec(base, b, dev)?,
        target: Tensor::from_vec(target, b, dev)?,
        weight: Tensor::from_vec(weight, b, dev)?,
    })
}

pub(crate) fn loss(model: &Model, b: &Batch) -> candle_core::Result<Tensor> {
    let pred = candle_nn::ops::sigmoid(&(model.forward(&b.us, &b.them, &b.mask)? + &b.base)?)?;
    ((pred - &b.target)?.sqr()? * &b.weight)?.mean_all()
}

/// The mean loss over a whole set, without training.
pub(crate) fn set_loss(
    model: &Model,
    set: &Set,
    inputs: usize,
    args: &Training,
    dev: &Device,
) -> candle_core::Result<f64> {
    let idx: Vec<usize> = (0..set.len()).collect();
    let mut total = 0.0;
    for chunk in idx.chunks(4096) {
        let b = batch(set, chunk, inputs, &model.bounds, args, dev)?;
        total += f64::from(loss(model, &b)?.to_scalar::<f32>()?) * chunk.len() as f64;
    }
    Ok(total / set.len().max(1) as f64)
}
