//! The embed view's URL keys: `embed` (the compact view for blog posts),
//! `view` (which part it shows), `controls` (its few settings, or none) and
//! `theme` (light, dark or the reader's setting). One table, [`EmbedParam`],
//! gives each key its name, default, choices, label and help; the page's
//! query parser, the catalog and the Embed dialog all read it.
//!
//! `view` and `controls` only mean something in the embed view and are
//! only written back there; `theme` applies to the full page too.

use crate::error::ParamError;
use crate::param_spec::{self, Params, Range, Spec};
use crate::text::Text;

/// Which part of the result an embed shows (`view=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Part {
    Table,
    Gantt,
    Cdf,
    #[default]
    All,
}

impl Part {
    pub(crate) const ALL: [Part; 4] = [Part::Table, Part::Gantt, Part::Cdf, Part::All];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Part::Table => "table",
            Part::Gantt => "gantt",
            Part::Cdf => "cdf",
            Part::All => "all",
        }
    }

    fn label(self) -> Text {
        match self {
            Part::Table => Text::new("Latency table", "延迟表"),
            Part::Gantt => Text::new("Schedule (Gantt chart)", "调度（甘特图）"),
            Part::Cdf => Text::new("Latency CDF", "延迟 CDF"),
            Part::All => Text::new("All of it", "全部"),
        }
    }
}

/// The colours (`theme=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EmbedTheme {
    Light,
    Dark,
    /// The reader's system setting (`prefers-color-scheme`).
    #[default]
    Auto,
}

impl EmbedTheme {
    pub const ALL: [EmbedTheme; 3] = [EmbedTheme::Light, EmbedTheme::Dark, EmbedTheme::Auto];

    pub(crate) fn name(self) -> &'static str {
        match self {
            EmbedTheme::Light => "light",
            EmbedTheme::Dark => "dark",
            EmbedTheme::Auto => "auto",
        }
    }

    fn label(self) -> Text {
        match self {
            EmbedTheme::Light => Text::new("Light", "浅色"),
            EmbedTheme::Dark => Text::new("Dark", "深色"),
            EmbedTheme::Auto => Text::new("The reader's setting", "跟随读者的系统设置"),
        }
    }
}

/// How an experiment is shown: the full page, or the embed view with its
/// part, controls and theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmbedView {
    pub embed: bool,
    pub part: Part,
    pub controls: bool,
    pub theme: EmbedTheme,
}

impl Default for EmbedView {
    /// The full page in the reader's theme; as an embed, all of it with
    /// its controls (what an embed link without these keys shows).
    fn default() -> Self {
        EmbedView {
            embed: false,
            part: Part::All,
            controls: true,
            theme: EmbedTheme::Auto,
        }
    }
}

/// One URL key of the embed view (its row in [`EmbedParam::SPECS`]; a
/// public contract, like every key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedParam {
    Embed,
    View,
    Controls,
    Theme,
}

impl Params for EmbedParam {
    const SPECS: &'static [Spec<EmbedParam>] = &SPECS;
}

const SPECS: [Spec<EmbedParam>; 4] = [
    Spec {
        id: EmbedParam::Embed,
        key: "embed",
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Other,
        unit: None,
        label: Text::new("Embed view", "嵌入视图"),
        help: Text::new(
                    "1: the compact view for blog posts.",
                    "1：用于博客文章的紧凑视图。",
                ),
    },
    Spec {
        id: EmbedParam::View,
        key: "view",
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Other,
        unit: None,
        label: Text::new("Shows", "显示"),
        help: Text::new(
                    "What the embed shows: the latency table, the schedule (gantt), the latency CDF or all of them. A scenario has no CDF: cdf shows all of it.",
                    "嵌入显示的内容：延迟表、调度（gantt）、延迟 CDF 或全部。场景没有 CDF：cdf 显示全部。",
                ),
    },
    Spec {
        id: EmbedParam::Controls,
        key: "controls",
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Other,
        unit: None,
        label: Text::new("Settings in the embed", "嵌入中的设置"),
        help: Text::new(
                    "1: the embed's few settings (seed, quantum, policies); 0: none, the result only.",
                    "1：嵌入的几项设置（种子、时间片、策略）；0：不显示设置，只显示结果。",
                ),
    },
    Spec {
        id: EmbedParam::Theme,
        key: "theme",
        aliases: &[],
        flag: None,
        arg: "",
        range: Range::Other,
        unit: None,
        label: Text::new("Colours", "配色"),
        help: Text::new(
                    "light, dark, or auto: the reader's system setting.",
                    "light（浅色）、dark（深色）或 auto：跟随读者的系统设置。",
                ),
    },
];

/// One value a key can take, with its name in a picker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    pub value: &'static str,
    pub label: Text,
}

const ON_OFF: Text = Text::new("1 or 0", "1 或 0");

impl EmbedParam {
    /// In the order they are written into a link.
    pub(crate) const ALL: [EmbedParam; 4] = param_spec::ids(&SPECS);

    /// What the parser accepts, in the words of its refusal.
    pub(crate) fn allowed(self) -> Text {
        match self {
            EmbedParam::Embed | EmbedParam::Controls => ON_OFF,
            EmbedParam::View => Text::new("table, gantt, cdf or all", "table、gantt、cdf 或 all"),
            EmbedParam::Theme => Text::new("light, dark or auto", "light、dark 或 auto"),
        }
    }

    /// Every value, for the Embed dialog's pickers.
    pub(crate) fn choices(self) -> Vec<Choice> {
        match self {
            EmbedParam::Embed => vec![
                Choice {
                    value: "0",
                    label: Text::new("The full page", "完整页面"),
                },
                Choice {
                    value: "1",
                    label: Text::new("The embed view", "嵌入视图"),
                },
            ],
            EmbedParam::View => Part::ALL
                .into_iter()
                .map(|p| Choice {
                    value: p.name(),
                    label: p.label(),
                })
                .collect(),
            EmbedParam::Controls => vec![
                Choice {
                    value: "1",
                    label: Text::new("With its settings", "带设置"),
                },
                Choice {
                    value: "0",
                    label: Text::new("Without settings", "不带设置"),
                },
            ],
            EmbedParam::Theme => EmbedTheme::ALL
                .into_iter()
                .map(|t| Choice {
                    value: t.name(),
                    label: t.label(),
                })
                .collect(),
        }
    }
}

fn on_off(field: &str, value: &str) -> Result<bool, ParamError> {
    match value.trim() {
        "1" => Ok(true),
        "0" => Ok(false),
        _ => Err(ParamError::new(field, value, ON_OFF)),
    }
}

fn one_of<T: Copy>(
    field: &str,
    value: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
    allowed: Text,
) -> Result<T, ParamError> {
    let v = value.trim();
    all.iter()
        .copied()
        .find(|&x| name(x) == v)
        .ok_or_else(|| ParamError::new(field, value, allowed))
}

impl EmbedView {
    /// Sets one key from URL text (`field` is the key as written).
    pub(crate) fn set(
        &mut self,
        param: EmbedParam,
        field: &str,
        value: &str,
    ) -> Result<(), ParamError> {
        let allowed = param.allowed();
        match param {
            EmbedParam::Embed => self.embed = on_off(field, value)?,
            EmbedParam::Controls => self.controls = on_off(field, value)?,
            EmbedParam::View => self.part = one_of(field, value, &Part::ALL, Part::name, allowed)?,
            EmbedParam::Theme => {
                self.theme = one_of(field, value, &EmbedTheme::ALL, EmbedTheme::name, allowed)?
            }
        }
        Ok(())
    }

    /// The key's value, in the syntax `set` reads.
    pub(crate) fn get(&self, param: EmbedParam) -> &'static str {
        let bit = |b: bool| if b { "1" } else { "0" };
        match param {
            EmbedParam::Embed => bit(self.embed),
            EmbedParam::Controls => bit(self.controls),
            EmbedParam::View => self.part.name(),
            EmbedParam::Theme => self.theme.name(),
        }
    }

    /// Reads the embed keys from decoded query pairs; other keys are
    /// ignored. A bad value is reported and keeps its default; a key given
    /// twice keeps its first value and each repeat is reported.
    pub fn from_query<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (EmbedView, Vec<ParamError>) {
        let mut view = EmbedView::default();
        let errors = param_spec::read_query(pairs, |p, k, v| view.set(p, k, v));
        (view, errors)
    }

    /// Pairs for the keys that differ from the defaults and apply: `view`
    /// and `controls` only in the embed view.
    pub fn to_query(&self) -> Vec<(&'static str, &'static str)> {
        let d = EmbedView::default();
        EmbedParam::ALL
            .into_iter()
            .filter(|&p| self.get(p) != d.get(p))
            .filter(|&p| self.embed || !matches!(p, EmbedParam::View | EmbedParam::Controls))
            .map(|p| (p.url_key(), self.get(p)))
            .collect()
    }

    /// The same view as an embed (what the Embed dialog's snippets load).
    pub(crate) fn as_embed(self) -> EmbedView {
        EmbedView {
            embed: true,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> (EmbedView, Vec<String>) {
        let (v, e) = EmbedView::from_query(pairs.iter().copied());
        (v, e.iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn absent_keys_are_the_full_page_and_write_nothing() {
        let (v, e) = parse(&[("q", "8"), ("seed", "1")]);
        assert!(e.is_empty());
        assert_eq!(v, EmbedView::default());
        assert!(v.to_query().is_empty());
    }

    #[test]
    fn every_value_round_trips() {
        for part in Part::ALL {
            for controls in [true, false] {
                for theme in EmbedTheme::ALL {
                    let v = EmbedView {
                        embed: true,
                        part,
                        controls,
                        theme,
                    };
                    let q = v.to_query();
                    assert_eq!(q[0], ("embed", "1"));
                    let (back, e) = EmbedView::from_query(q.iter().copied());
                    assert!(e.is_empty(), "{e:?}");
                    assert_eq!(back, v);
                }
            }
        }
    }

    #[test]
    fn view_and_controls_are_written_only_for_embeds() {
        let (v, e) = parse(&[("view", "table"), ("controls", "0"), ("theme", "dark")]);
        assert!(e.is_empty());
        assert_eq!(v.part, Part::Table);
        assert_eq!(v.to_query(), vec![("theme", "dark")]);
        assert_eq!(
            v.as_embed().to_query(),
            vec![
                ("embed", "1"),
                ("view", "table"),
                ("controls", "0"),
                ("theme", "dark")
            ]
        );
    }

    #[test]
    fn bad_values_name_the_key_and_what_is_allowed() {
        let (v, e) = parse(&[
            ("view", "<b>x</b>"),
            ("controls", "yes"),
            ("theme", "Dark"),
            ("embed", "true"),
        ]);
        assert_eq!(v, EmbedView::default());
        assert_eq!(
            e,
            [
                "invalid view '<b>x</b>': expected table, gantt, cdf or all",
                "invalid controls 'yes': expected 1 or 0",
                "invalid theme 'Dark': expected light, dark or auto",
                "invalid embed 'true': expected 1 or 0",
            ]
        );
    }

    #[test]
    fn a_repeated_key_keeps_its_first_value() {
        let (v, e) = parse(&[("theme", "dark"), ("theme", "light")]);
        assert_eq!(v.theme, EmbedTheme::Dark);
        assert_eq!(
            e,
            ["invalid theme 'light': expected theme only once; the link gives it again after its first value 'dark'"]
        );
    }

    #[test]
    fn surrounding_spaces_are_accepted_like_other_keys() {
        let (v, e) = parse(&[("view", " cdf "), ("embed", "1 ")]);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(v.part, Part::Cdf);
        assert!(v.embed);
    }

    #[test]
    fn each_choice_is_accepted_and_each_key_refuses_what_it_names_not() {
        for p in EmbedParam::ALL {
            for c in p.choices() {
                let mut v = EmbedView::default();
                v.set(p, p.url_key(), c.value).unwrap();
                assert_eq!(v.get(p), c.value);
            }
            let e = EmbedView::default()
                .set(p, p.url_key(), "\u{1}")
                .unwrap_err();
            assert_eq!(e.allowed, p.allowed().into());
        }
    }
}
