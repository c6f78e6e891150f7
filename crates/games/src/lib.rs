//! Games (placeholder).
