//! From a subcommand's flags to the plain settings its domain module takes.
//!
//! The library's settings types know nothing of clap; each subcommand turns its flags into
//! them field by field. [`settings_from_flags!`] writes that conversion from the list of fields,
//! so it is written once instead of as one struct literal per subcommand.

/// A value read from the command line, as the type its settings field has.
pub trait Setting<T> {
    /// The value for the settings field.
    fn setting(self) -> T;
}

/// Most fields keep their value and type.
impl<T> Setting<T> for T {
    fn setting(self) -> T {
        self
    }
}

/// Counts are `u32` on the command line (clap's range checks) and `usize` in the settings.
impl Setting<usize> for u32 {
    fn setting(self) -> usize {
        self as usize
    }
}

/// An optional count, likewise.
impl Setting<Option<usize>> for Option<u32> {
    fn setting(self) -> Option<usize> {
        self.map(|n| n as usize)
    }
}

/// `From<flags> for settings` (and `Setting`, so a flattened flag group converts as a field),
/// copying the named fields, each through [`Setting`].
macro_rules! settings_from_flags {
    ($flags:ty => $settings:ident { $($field:ident),* $(,)? }) => {
        impl $crate::commands::settings::Setting<$settings> for $flags {
            fn setting(self) -> $settings {
                $settings {
                    $($field: $crate::commands::settings::Setting::setting(self.$field)),*
                }
            }
        }

        impl From<$flags> for $settings {
            fn from(flags: $flags) -> Self {
                $crate::commands::settings::Setting::setting(flags)
            }
        }
    };
}
pub(crate) use settings_from_flags;
