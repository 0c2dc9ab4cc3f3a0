//! Ordered maps and sets for the small collections outside the engine's hot paths: a sorted
//! vector searched by binary search.
//!
//! The standard library's B-tree compiles its insert, remove, rebalancing, iteration and drop
//! for every key and value type, 3 to 11 KB of WebAssembly each, and forty such copies made a
//! twentieth of the download. A sorted vector compiles a binary search and a vector's insert
//! and remove, a few hundred bytes a type. An insert or a remove moves the entries after it,
//! which costs nothing at the sizes these collections hold (tables, families, designs, the
//! properties of a shell session, the runs a save names); entries added in key order, as most
//! are, go on the end. The engine's memstores keep the B-tree.
//!
//! The API is the part of `BTreeMap` and `BTreeSet` that Rowkey uses, under the same names.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Bound, RangeBounds};

/// A map ordered by key, as `BTreeMap`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn default() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

/// The position of `key` in `entries` (`Ok`), or where it would go (`Err`): the last entry is
/// tried first, so that keys arriving in order cost one comparison.
fn position<T, Q: Ord + ?Sized>(
    entries: &[T],
    key: &Q,
    key_of: impl Fn(&T) -> &Q,
) -> Result<usize, usize> {
    match entries.last().map(|last| key_of(last).cmp(key)) {
        None | Some(Ordering::Less) => Err(entries.len()),
        Some(Ordering::Equal) => Ok(entries.len() - 1),
        Some(Ordering::Greater) => entries.binary_search_by(|e| key_of(e).cmp(key)),
    }
}

/// The positions of `entries` within `range`.
#[cfg_attr(rowkey_cold, optimize(size))]
fn span<T, Q: Ord + ?Sized>(
    entries: &[T],
    range: &impl RangeBounds<Q>,
    key_of: impl Fn(&T) -> &Q,
) -> std::ops::Range<usize> {
    let start = match range.start_bound() {
        Bound::Included(k) => entries.partition_point(|e| key_of(e) < k),
        Bound::Excluded(k) => entries.partition_point(|e| key_of(e) <= k),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(k) => entries.partition_point(|e| key_of(e) <= k),
        Bound::Excluded(k) => entries.partition_point(|e| key_of(e) < k),
        Bound::Unbounded => entries.len(),
    };
    start..end.max(start)
}

impl<K: Ord, V> SortedMap<K, V> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub const fn new() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        position(&self.entries, key, |(k, _)| k.borrow())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        let i = self.find(key).ok()?;
        self.entries.get(i).map(|(_, v)| v)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        let i = self.find(key).ok()?;
        self.entries.get_mut(i).map(|(_, v)| v)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`, returning the value it replaced.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => self
                .entries
                .get_mut(i)
                .map(|(_, v)| std::mem::replace(v, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let i = self.find(key).ok()?;
        Some(self.entries.remove(i).1)
    }

    /// The place of `key`, to read or fill, as `BTreeMap::entry`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        let at = self.find(&key);
        Entry { map: self, at, key }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&K, &mut V)> {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn keys(&self) -> Keys<'_, K, V> {
        Keys(self.entries.iter())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// The entries with keys in `range`, in order.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn range<Q: Ord + ?Sized>(
        &self,
        range: impl RangeBounds<Q>,
    ) -> impl DoubleEndedIterator<Item = (&K, &V)>
    where
        K: Borrow<Q>,
    {
        let at = span(&self.entries, &range, |(k, _)| k.borrow());
        self.entries[at].iter().map(|(k, v)| (k, v))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }
}

/// The keys of a [`SortedMap`], in order; printed as the list of them.
pub struct Keys<'a, K, V>(std::slice::Iter<'a, (K, V)>);

impl<K, V> Clone for Keys<'_, K, V> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn clone(&self) -> Self {
        Keys(self.0.clone())
    }
}

impl<'a, K, V> Iterator for Keys<'a, K, V> {
    type Item = &'a K;
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next(&mut self) -> Option<&'a K> {
        self.0.next().map(|(k, _)| k)
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Keys<'_, K, V> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, _)| k)
    }
}

impl<K, V> ExactSizeIterator for Keys<'_, K, V> {}

impl<K: fmt::Debug, V> fmt::Debug for Keys<'_, K, V> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// A key's place in a [`SortedMap`], found once: its value, or where a new one goes.
pub struct Entry<'a, K, V> {
    map: &'a mut SortedMap<K, V>,
    at: Result<usize, usize>,
    key: K,
}

impl<'a, K, V> Entry<'a, K, V> {
    /// The key's value, made by `make` first if the map has none.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        let i = match self.at {
            Ok(i) => i,
            Err(i) => {
                self.map.entries.insert(i, (self.key, make()));
                i
            }
        };
        &mut self.map.entries[i].1
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    /// Built by inserting one by one: the last value of a key wins, as with `BTreeMap`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        let mut map = SortedMap::new();
        map.extend(pairs);
        map
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    /// Appended, then put in order once if they did not come in order (one sort, not a move
    /// of the entries after each): the last value of a key wins, as with `BTreeMap`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, pairs: I) {
        let start = self.entries.len();
        self.entries.extend(pairs);
        if in_order(&self.entries, start, |(k, _)| k) {
            return;
        }
        crate::kit::order::sort_by(&mut self.entries, |a, b| a.0.cmp(&b.0));
        // Equal keys sit together in the order they came: the later one's value is kept.
        self.entries.dedup_by(|later, kept| {
            if later.0 == kept.0 {
                std::mem::swap(&mut later.1, &mut kept.1);
                true
            } else {
                false
            }
        });
    }
}

/// Whether the items from `start` on are strictly increasing and above the ones before.
#[cfg_attr(rowkey_cold, optimize(size))]
fn in_order<T, K: Ord>(items: &[T], start: usize, key_of: impl Fn(&T) -> &K) -> bool {
    items
        .get(start.saturating_sub(1)..)
        .is_none_or(|tail| tail.windows(2).all(|w| key_of(&w[0]) < key_of(&w[1])))
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

/// Written and read as a map, as `BTreeMap` is (the engine's derived records: the native
/// command line's report, tables' attributes).
impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for SortedMap<K, V> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.entries.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, K: Ord + serde::Deserialize<'de>, V: serde::Deserialize<'de>> serde::Deserialize<'de>
    for SortedMap<K, V>
{
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Ord + serde::Deserialize<'de>, V: serde::Deserialize<'de>>
            serde::de::Visitor<'de> for Visit<K, V>
        {
            type Value = SortedMap<K, V>;
            #[cfg_attr(rowkey_cold, optimize(size))]
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            #[cfg_attr(rowkey_cold, optimize(size))]
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut access: A,
            ) -> Result<Self::Value, A::Error> {
                let mut map = SortedMap::new();
                while let Some((k, v)) = access.next_entry()? {
                    map.insert(k, v);
                }
                Ok(map)
            }
        }
        deserializer.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// A set ordered by value, as `BTreeSet`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SortedSet<T> {
    items: Vec<T>,
}

impl<T> Default for SortedSet<T> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn default() -> Self {
        SortedSet { items: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for SortedSet<T> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.items.iter()).finish()
    }
}

impl<T: Ord> SortedSet<T> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub const fn new() -> Self {
        SortedSet { items: Vec::new() }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn find<Q: Ord + ?Sized>(&self, item: &Q) -> Result<usize, usize>
    where
        T: Borrow<Q>,
    {
        position(&self.items, item, |t| t.borrow())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn clear(&mut self) {
        self.items.clear();
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.find(item).is_ok()
    }

    /// Adds `item`; false when the set held it already.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn insert(&mut self, item: T) -> bool {
        match self.find(&item) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, item);
                true
            }
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn remove<Q: Ord + ?Sized>(&mut self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        match self.find(item) {
            Ok(i) => {
                self.items.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.items.retain(keep);
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn last(&self) -> Option<&T> {
        self.items.last()
    }

    /// The items in `range`, in order.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn range<Q: Ord + ?Sized>(&self, range: impl RangeBounds<Q>) -> std::slice::Iter<'_, T>
    where
        T: Borrow<Q>,
    {
        self.items[span(&self.items, &range, |t| t.borrow())].iter()
    }

    /// The items of this set not in `other`, in order.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn difference<'a>(&'a self, other: &'a SortedSet<T>) -> impl Iterator<Item = &'a T> + 'a {
        self.items.iter().filter(move |t| !other.contains(*t))
    }
}

impl<T: Ord> FromIterator<T> for SortedSet<T> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut set = SortedSet::new();
        set.extend(items);
        set
    }
}

impl<T: Ord> Extend<T> for SortedSet<T> {
    /// Appended, then put in order once if they did not come in order; an item the set
    /// holds already stays as it was, as with `BTreeSet`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        let start = self.items.len();
        self.items.extend(items);
        if in_order(&self.items, start, |t| t) {
            return;
        }
        crate::kit::order::sort(&mut self.items);
        self.items.dedup();
    }
}

impl<T> IntoIterator for SortedSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a SortedSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// Collected out of order and with repeats, as the B-tree collects: a set keeps one of each,
    /// a map the last value of a key.
    #[test]
    fn collect_as_btree_collects() {
        let words = ["b", "a", "c", "a"];
        let set: SortedSet<&str> = words.into_iter().collect();
        assert!(set.iter().eq(words.iter().collect::<BTreeSet<_>>()));
        let pairs = [("b", 1), ("a", 2), ("b", 3)];
        let map: SortedMap<&str, i32> = pairs.into_iter().collect();
        assert!(map
            .iter()
            .eq(pairs.into_iter().collect::<BTreeMap<_, _>>().iter()));
        assert_eq!(map.get("b"), Some(&3));
    }

    /// Inserts, removes, lookups and ranges over a seeded sequence agree with the B-tree.
    #[test]
    fn agrees_with_btree() {
        let mut rng = crate::kit::seeded::Gen::new(7);
        let mut map = SortedMap::new();
        let mut model = BTreeMap::new();
        let mut set = SortedSet::new();
        let mut set_model = BTreeSet::new();
        for step in 0..4000u64 {
            let k = rng.below(300);
            match rng.below(4) {
                0 | 1 => {
                    assert_eq!(map.insert(k, step), model.insert(k, step));
                    assert_eq!(set.insert(k), set_model.insert(k));
                }
                2 => {
                    assert_eq!(map.remove(&k), model.remove(&k));
                    assert_eq!(set.remove(&k), set_model.remove(&k));
                }
                _ => {
                    let hi = k + rng.below(40);
                    let got: Vec<_> = map.range(k..hi).collect();
                    let want: Vec<_> = model.range(k..hi).collect();
                    assert_eq!(got, want);
                    let got: Vec<_> = set.range(k..=hi).collect();
                    let want: Vec<_> = set_model.range(k..=hi).collect();
                    assert_eq!(got, want);
                }
            }
            assert_eq!(map.get(&k), model.get(&k));
        }
        let more: Vec<(u64, u64)> = (0..500).map(|i| (rng.below(400), 10_000 + i)).collect();
        map.extend(more.iter().copied());
        model.extend(more.iter().copied());
        set.extend(more.iter().map(|p| p.0));
        set_model.extend(more.iter().map(|p| p.0));
        assert!(map.iter().eq(model.iter()));
        assert!(set.iter().eq(set_model.iter()));
        assert_eq!(map.first_key_value(), model.first_key_value());
        assert_eq!(map.last_key_value(), model.last_key_value());
    }
}
