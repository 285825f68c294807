//! An experiment inside someone else's page.
//!
//! - [`view`]: the embed view's URL keys (`embed`, `view`, `controls`,
//!   `theme`), one table with the same refusals as every other key;
//! - [`snippet`]: the two snippets the Embed dialog writes — a live facade
//!   (the figure inside a link, swapped for the live embed by the
//!   deployment's `facade.js` on a click) and a static figure with its link
//!   for places that allow no script or frame. The figure itself is the
//!   chart module's (`crate::chart::figure`), drawn by the front end;
//! - [`figures`]: that figure drawn at several widths, the snippet showing
//!   the widest that fits the post's column (a phone gets a phone's
//!   layout, its text at the size it was drawn).

pub(crate) mod figures;
pub(crate) mod snippet;
pub(crate) mod view;

pub use snippet::{Snippet, SnippetKind};
pub use view::{EmbedParam, EmbedTheme, EmbedView, Part};
