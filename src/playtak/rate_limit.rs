//! How often the bot answers chat: at most one reply per sender per interval, and at most a
//! number of replies in any window over all senders, so neither one player nor a crowd can make
//! the bot flood the server (which mutes players who spam). Time is passed in, so the rules are
//! tested without waiting.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// The limits and what was answered recently.
#[derive(Clone, Debug)]
pub struct RateLimit {
    per_sender: Duration,
    max_in_window: usize,
    window: Duration,
    /// When each sender was last answered (names lower-cased; entries older than
    /// `per_sender` are dropped, so the map stays small).
    last_by_sender: HashMap<String, Instant>,
    /// When each reply of the last `window` was sent, oldest first.
    recent: VecDeque<Instant>,
}

impl RateLimit {
    /// One reply per sender per `per_sender`; at most `max_in_window` replies in any `window`.
    pub fn new(per_sender: Duration, max_in_window: usize, window: Duration) -> RateLimit {
        RateLimit {
            per_sender,
            max_in_window,
            window,
            last_by_sender: HashMap::new(),
            recent: VecDeque::new(),
        }
    }

    /// Whether a reply to `sender` may go out at `now`; if so, it is counted.
    pub fn allow(&mut self, sender: &str, now: Instant) -> bool {
        let per_sender = self.per_sender;
        self.last_by_sender
            .retain(|_, at| now.saturating_duration_since(*at) < per_sender);
        while self
            .recent
            .front()
            .is_some_and(|at| now.saturating_duration_since(*at) >= self.window)
        {
            self.recent.pop_front();
        }
        let key = sender.to_ascii_lowercase();
        if self.last_by_sender.contains_key(&key) || self.recent.len() >= self.max_in_window {
            return false;
        }
        self.last_by_sender.insert(key, now);
        self.recent.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_reply_per_sender_per_interval() {
        let mut limit = RateLimit::new(Duration::from_secs(5), 100, Duration::from_secs(60));
        let t0 = Instant::now();
        assert!(limit.allow("alice", t0));
        assert!(!limit.allow("Alice", t0 + Duration::from_secs(4)));
        assert!(limit.allow("bob", t0 + Duration::from_secs(4)));
        assert!(limit.allow("alice", t0 + Duration::from_secs(5)));
    }

    #[test]
    fn at_most_so_many_replies_in_any_window() {
        let mut limit = RateLimit::new(Duration::from_secs(1), 3, Duration::from_secs(60));
        let t0 = Instant::now();
        let answered = (0..10)
            .filter(|i| limit.allow(&format!("p{i}"), t0 + Duration::from_secs(*i)))
            .count();
        assert_eq!(answered, 3);
        // The first reply leaves the window at 60 s: one more may go.
        assert!(limit.allow("late", t0 + Duration::from_secs(60)));
        assert!(!limit.allow("later", t0 + Duration::from_secs(60)));
    }

    #[test]
    fn the_sender_table_forgets_old_senders() {
        let mut limit = RateLimit::new(Duration::from_secs(1), usize::MAX, Duration::from_secs(1));
        let t0 = Instant::now();
        for i in 0..1000u64 {
            assert!(limit.allow(&format!("p{i}"), t0 + Duration::from_secs(i)));
        }
        assert!(limit.last_by_sender.len() <= 1);
        assert!(limit.recent.len() <= 1);
    }
}
