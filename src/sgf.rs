//! Loading and saving games as SGF (FF[4]) through the `sgf-parse` crate.
