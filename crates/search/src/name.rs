//! Named values: the one convention by which every enum of names on the command line, in
//! reports and in JSON (an algorithm, a window, an ordering, a format...) is printed and parsed.
//! An enum implements [`Named`] (its names, in one table) and gets `FromStr` and `Display` from
//! [`named!`](crate::named); a name that is not known is an [`UnknownName`] listing the known
//! ones.

/// An enum whose values each have a name (and maybe other accepted spellings).
pub trait Named: Copy + PartialEq + 'static {
    /// What the values are, for messages: `"window"`, `"ordering"`.
    const KIND: &'static str;
    /// Every value, in the order messages list them.
    const ALL: &'static [Self];

    /// The value's name (lowercase, as typed on the command line).
    fn name(self) -> &'static str;

    /// Other spellings accepted for it (lowercase); none by default.
    fn aliases(self) -> &'static [&'static str] {
        &[]
    }
}

/// A name that no value of an enum has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} '{given}' (expected {expected})")]
pub struct UnknownName {
    /// What was being named ([`Named::KIND`]).
    pub kind: &'static str,
    /// What was given.
    pub given: String,
    /// The known names, listed.
    pub expected: String,
}

/// The value of `T` named `text` (trimmed, in any case), by name or alias.
pub fn parse_name<T: Named>(text: &str) -> Result<T, UnknownName> {
    let wanted = text.trim().to_ascii_lowercase();
    T::ALL
        .iter()
        .copied()
        .find(|v| v.name() == wanted || v.aliases().contains(&wanted.as_str()))
        .ok_or_else(|| UnknownName {
            kind: T::KIND,
            given: text.trim().to_string(),
            expected: list_names::<T>(),
        })
}

/// The names of `T`'s values as a message lists them: `exact or wdl`, `a, b or c`.
pub fn list_names<T: Named>() -> String {
    let names: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Implements `FromStr` (with [`UnknownName`] as its error) and `Display` for enums that
/// implement [`Named`].
#[macro_export]
macro_rules! named {
    ($($t:ty),+ $(,)?) => {$(
        impl ::std::str::FromStr for $t {
            type Err = $crate::UnknownName;
            fn from_str(text: &str) -> Result<Self, $crate::UnknownName> {
                $crate::parse_name(text)
            }
        }

        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::Named::name(*self))
            }
        }
    )+};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Colour {
        Red,
        Green,
        Blue,
    }

    impl Named for Colour {
        const KIND: &'static str = "colour";
        const ALL: &'static [Self] = &[Colour::Red, Colour::Green, Colour::Blue];
        fn name(self) -> &'static str {
            match self {
                Colour::Red => "red",
                Colour::Green => "green",
                Colour::Blue => "blue",
            }
        }
        fn aliases(self) -> &'static [&'static str] {
            match self {
                Colour::Red => &["scarlet"],
                _ => &[],
            }
        }
    }

    crate::named!(Colour);

    #[test]
    fn names_and_aliases_parse_in_any_case_and_print_back() {
        for c in Colour::ALL {
            assert_eq!(c.to_string().parse::<Colour>(), Ok(*c));
        }
        assert_eq!(" SCARLET ".parse::<Colour>(), Ok(Colour::Red));
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let err = "mauve".parse::<Colour>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown colour 'mauve' (expected red, green or blue)"
        );
    }
}
