//! A vector that keeps its first `N` elements inline: the heading pieces of one statement
//! (closers, scopes, option blocks) are almost always one or two, and the hot path allocates
//! nothing for them.

/// Inline storage for `N` copies of `T`, spilling to the heap beyond.
#[derive(Debug, Clone)]
pub struct Small<T: Copy + Default, const N: usize> {
    inline: [T; N],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy + Default, const N: usize> Default for Small<T, N> {
    fn default() -> Self {
        Small { inline: [T::default(); N], len: 0, spill: Vec::new() }
    }
}

impl<T: Copy + Default, const N: usize> Small<T, N> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, v: T) {
        if self.len < N {
            self.inline[self.len] = v;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(v);
        }
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[T] {
        if self.len <= N {
            &self.inline[..self.len]
        } else {
            &self.spill
        }
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn first(&self) -> Option<&T> {
        self.as_slice().first()
    }

    pub fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    /// Moves every element of `other` to the end of `self`.
    pub fn append(&mut self, other: &mut Self) {
        for &v in other.iter() {
            self.push(v);
        }
        other.clear();
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a Small<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + Default, const N: usize> std::ops::Index<usize> for Small<T, N> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

#[cfg(test)]
mod tests {
    use super::Small;

    #[test]
    fn spills_past_its_inline_capacity() {
        let mut s: Small<u32, 2> = Small::new();
        for i in 0..5 {
            s.push(i);
        }
        assert_eq!(s.as_slice(), &[0, 1, 2, 3, 4]);
        let mut t: Small<u32, 2> = Small::new();
        t.push(9);
        t.append(&mut s);
        assert_eq!(t.as_slice(), &[9, 0, 1, 2, 3, 4]);
        assert!(s.is_empty());
    }
}
