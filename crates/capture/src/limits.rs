//! What one capture may cost: the limits the transports, the protocol and the errors share.

/// Most `tools/list` pages read before giving up.
pub const MAX_PAGES: usize = 1000;
/// Largest single message accepted.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;
/// Most bytes a server may send in one capture, every message and page together: the largest
/// capture file schematax reads.
pub const MAX_CAPTURE_BYTES: u64 = schematax_engine::inputs::capture_file::MAX_CAPTURE_BYTES;
