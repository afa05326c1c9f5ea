//! The analyses on top of the replay: [`lint`] (tool description quality and findability),
//! [`eval`] (retrieval evaluation of a queries file) and [`compare`] (several releases side by
//! side).

pub mod compare;
pub mod eval;
pub mod lint;
