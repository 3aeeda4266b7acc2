//! 手談 shoutan: a Go engine speaking the Go Text Protocol.
//!
//! Data flows one way: a GTP line ([`gtp`]) becomes a command on the engine state — the game
//! ([`game`], on a [`board`]) under its [`rules`] and [`time`] clock — which may start a
//! [`search`] built on Monte-Carlo [`playout`]s, and is answered. Final positions are counted by
//! [`score`]; SGF files go through [`sgf`].

pub mod bench;
pub mod benson;
pub mod board;
pub mod game;
pub mod gtp;
pub mod ownership;
pub mod patterns;
pub mod playout;
pub mod policy;
pub mod rng;
pub mod rules;
pub mod score;
pub mod search;
pub mod sgf;
pub mod status;
pub mod tactics;
pub mod time;
