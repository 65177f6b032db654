//! One page of a long list (standings are shown a page at a time).

use serde::{Deserialize, Serialize};

/// Entries `(page - 1) * per_page ..` of a list, and where they sit in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page<T> {
    pub items: Vec<T>,
    /// From 1.
    pub page: usize,
    /// At least 1, even for an empty list.
    pub pages: usize,
    /// Entries in the whole list.
    pub total: usize,
}

impl<T: Clone> Page<T> {
    /// Page `page` (from 1) of `all` cut into pages of `per_page`; a page past the end is
    /// empty, and `per_page` 0 is read as 1.
    pub fn of(all: &[T], page: usize, per_page: usize) -> Page<T> {
        let per_page = per_page.max(1);
        let page = page.max(1);
        let start = (page - 1).saturating_mul(per_page).min(all.len());
        let end = start.saturating_add(per_page).min(all.len());
        Page {
            items: all[start..end].to_vec(),
            page,
            pages: all.len().div_ceil(per_page).max(1),
            total: all.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_cut_the_list_in_order() {
        let all: Vec<u32> = (1..=25).collect();
        let second = Page::of(&all, 2, 10);
        assert_eq!(second.items, (11..=20).collect::<Vec<_>>());
        assert_eq!((second.page, second.pages, second.total), (2, 3, 25));
        assert_eq!(Page::of(&all, 3, 10).items, (21..=25).collect::<Vec<_>>());
        assert!(Page::of(&all, 4, 10).items.is_empty());
        assert!(Page::of(&all, usize::MAX, usize::MAX).items.is_empty());
        assert_eq!(Page::of(&all, 0, 0).items, vec![1]);
        let none: Vec<u32> = Vec::new();
        assert_eq!(Page::of(&none, 1, 10).pages, 1);
    }
}
