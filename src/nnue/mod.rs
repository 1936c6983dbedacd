//! Learned evaluation: the data self-play writes for training ([`data`]).

pub mod data;
