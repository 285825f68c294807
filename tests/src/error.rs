//! The one error type of the harness and the tests.

/// Any error or message (`?` works on `std::error::Error`s, `String`s and
/// `&str`s). Its `Debug` prints the plain message and its causes, so a
/// failing test shows readable text instead of an escaped string.
pub struct Error(Box<dyn std::error::Error + Send + Sync + 'static>);

impl<E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>> From<E> for Error {
    fn from(e: E) -> Self {
        Error(e.into())
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(s) = source {
            writeln!(f, "caused by: {s}")?;
            source = s.source();
        }
        Ok(())
    }
}

/// Result alias used by the harness and the tests.
pub type Result<T, E = Error> = std::result::Result<T, E>;
