//! Writing a reviewed game: the input's bytes copied as they are (whatever their encoding),
//! with properties added to the main line's nodes, comments appended, and variations
//! inserted as siblings of main-line moves.
//!
//! The file has been parsed by `sgf-parse` before (see [`crate::sgf::load`]); this module
//! only finds where the main line's nodes and game trees begin and end, in one pass with a
//! stack instead of recursion. Nothing is re-serialised, so properties the crate would
//! rewrite (`SZ[19]` as `SZ[19:19]`, unknown properties' escapes, point lists' order) stay
//! as they were written.

/// Where one node of the main line stands in the file.
#[derive(Clone, Debug)]
struct NodeSpan {
    /// Offset of the node's `;`.
    start: usize,
    /// Offset just after its last property value.
    props_end: usize,
    /// Its properties: identifier (capital letters only, as the crate reads old long names)
    /// and the offsets of the whole property.
    props: Vec<(String, usize, usize)>,
    /// Whether it is the first node of its game tree (its `(` comes right before it).
    opens_tree: bool,
    /// Offset of the `)` that closes the game tree holding it.
    tree_close: usize,
}

impl NodeSpan {
    fn has(&self, ident: &str) -> bool {
        self.props.iter().any(|(id, _, _)| id == ident)
    }
}

/// The main line of the first game tree of an SGF file, node by node.
#[derive(Clone, Debug)]
pub struct Layout {
    nodes: Vec<NodeSpan>,
}

impl Layout {
    /// Finds the main line (the first child everywhere) of the first game tree in `bytes`.
    pub fn scan(bytes: &[u8]) -> Result<Layout, String> {
        let broken = |at: usize| format!("cannot follow the SGF structure at byte {at}");
        // Open game trees: whether each is on the main line, its children so far, and the
        // main-line nodes it holds.
        struct Tree {
            main: bool,
            children: usize,
            nodes: Vec<usize>,
        }
        let mut stack: Vec<Tree> = Vec::new();
        let mut nodes: Vec<NodeSpan> = Vec::new();
        let mut just_opened = false;
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'(' => {
                    let main = match stack.last_mut() {
                        Some(parent) => {
                            parent.children += 1;
                            parent.main && parent.children == 1
                        }
                        None => true,
                    };
                    stack.push(Tree {
                        main,
                        children: 0,
                        nodes: Vec::new(),
                    });
                    just_opened = true;
                    i += 1;
                }
                b')' => {
                    let tree = stack.pop().ok_or_else(|| broken(i))?;
                    for &n in &tree.nodes {
                        nodes[n].tree_close = i;
                    }
                    i += 1;
                    if stack.is_empty() {
                        // The first game tree is complete.
                        break;
                    }
                }
                b';' => {
                    let tree = stack.last_mut().ok_or_else(|| broken(i))?;
                    let start = i;
                    i += 1;
                    let mut props = Vec::new();
                    let mut props_end = i;
                    loop {
                        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                            i += 1;
                        }
                        if i >= bytes.len() || matches!(bytes[i], b';' | b'(' | b')') {
                            break;
                        }
                        let prop_start = i;
                        while i < bytes.len() && bytes[i] != b'[' {
                            i += 1;
                        }
                        let ident: String = bytes[prop_start..i]
                            .iter()
                            .filter(|b| b.is_ascii_uppercase())
                            .map(|&b| b as char)
                            .collect();
                        while i < bytes.len() && bytes[i] == b'[' {
                            i = value_end(bytes, i).ok_or_else(|| broken(i))?;
                            props_end = i;
                            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                                i += 1;
                            }
                        }
                        if props_end <= prop_start {
                            return Err(broken(prop_start));
                        }
                        props.push((ident, prop_start, props_end));
                    }
                    if tree.main {
                        tree.nodes.push(nodes.len());
                        nodes.push(NodeSpan {
                            start,
                            props_end,
                            props,
                            opens_tree: just_opened,
                            tree_close: usize::MAX,
                        });
                    }
                    just_opened = false;
                }
                _ => i += 1,
            }
        }
        if !stack.is_empty() || nodes.is_empty() {
            return Err(broken(bytes.len()));
        }
        Ok(Layout { nodes })
    }

    /// Nodes on the main line, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the main line has no node (never true of a scanned file).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// For each main-line node, the number of moves (`B` or `W`) up to and including it.
    pub fn moves_so_far(&self) -> Vec<usize> {
        let mut moves = 0;
        self.nodes
            .iter()
            .map(|n| {
                if n.has("B") || n.has("W") {
                    moves += 1;
                }
                moves
            })
            .collect()
    }
}

/// Offset after the `]` closing the value that opens at `at`.
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b']' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// What to add to one main-line node.
#[derive(Clone, Debug, Default)]
pub struct NodeNotes {
    /// Properties to write, already in SGF form (`SBKV[54.2]BM[1]`); the node's own
    /// properties of the same names are dropped.
    pub props: Vec<(String, String)>,
    /// Text for the node's comment, after any comment it already has.
    pub comment: Option<String>,
    /// A node sequence in SGF form (`;B[cc]C[...];W[dd]`) to insert as an alternative to this
    /// node: a sibling, after the main line.
    pub variation: Option<String>,
}

/// Escapes SGF text (`\` and `]`).
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// A change to the input: delete a range, or insert bytes at an offset (ties are broken by
/// `order`, lower first).
enum Edit {
    Delete(usize, usize),
    Insert(usize, u64, Vec<u8>),
}

impl Edit {
    fn key(&self) -> (usize, u64) {
        match self {
            Edit::Delete(from, _) => (*from, 0),
            Edit::Insert(at, order, _) => (*at, *order),
        }
    }
}

/// `bytes` with `notes[i]` applied to the i-th main-line node of `layout` (extra notes are
/// ignored). A variation on the root is ignored (it would be a second game).
pub fn annotate(bytes: &[u8], layout: &Layout, notes: &[NodeNotes]) -> Vec<u8> {
    let mut edits = Vec::new();
    for (index, (node, note)) in layout.nodes.iter().zip(notes).enumerate() {
        let mut added = String::new();
        for (ident, value) in &note.props {
            for &(ref id, from, to) in &node.props {
                if id == ident {
                    edits.push(Edit::Delete(from, to));
                }
            }
            added.push_str(&format!("{ident}[{value}]"));
        }
        if let Some(text) = &note.comment {
            let text = escape(text);
            match node.props.iter().find(|(id, _, _)| id == "C") {
                // Before the comment's closing bracket.
                Some(&(_, _, end)) => {
                    edits.push(Edit::Insert(end - 1, 0, format!("\n\n{text}").into_bytes()))
                }
                None => added.push_str(&format!("C[{text}]")),
            }
        }
        if !added.is_empty() {
            edits.push(Edit::Insert(node.props_end, 1, added.into_bytes()));
        }
        if let Some(variation) = &note.variation
            && index > 0
        {
            // Variations closing at one offset nest: the later node's goes first.
            let order = 3 + (u32::MAX as u64 - index as u64);
            if node.opens_tree {
                // The node starts a child tree already: add a sibling tree after it.
                edits.push(Edit::Insert(
                    node.tree_close + 1,
                    order,
                    format!("({variation})").into_bytes(),
                ));
            } else {
                // Wrap the rest of the sequence (and its children) into a tree of its own.
                edits.push(Edit::Insert(node.start, 2, b"(".to_vec()));
                edits.push(Edit::Insert(
                    node.tree_close,
                    order,
                    format!(")({variation})").into_bytes(),
                ));
            }
        }
    }
    edits.sort_by_key(Edit::key);
    let mut out = Vec::with_capacity(bytes.len() * 2);
    let mut cursor = 0;
    for edit in edits {
        match edit {
            Edit::Delete(from, to) => {
                out.extend_from_slice(&bytes[cursor..from]);
                cursor = to;
            }
            Edit::Insert(at, _, text) => {
                if at > cursor {
                    out.extend_from_slice(&bytes[cursor..at]);
                    cursor = at;
                }
                out.extend_from_slice(&text);
            }
        }
    }
    out.extend_from_slice(&bytes[cursor..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notes(n: usize) -> Vec<NodeNotes> {
        vec![NodeNotes::default(); n]
    }

    fn apply(text: &str, notes: &[NodeNotes]) -> String {
        let layout = Layout::scan(text.as_bytes()).unwrap();
        String::from_utf8(annotate(text.as_bytes(), &layout, notes)).unwrap()
    }

    #[test]
    fn the_main_line_is_the_first_child_everywhere() {
        let text = "(;SZ[9]C[a \\] b];B[aa](;W[bb];B[cc])(;W[dd]))(;B[ee])";
        let layout = Layout::scan(text.as_bytes()).unwrap();
        assert_eq!(layout.len(), 4);
        assert_eq!(layout.moves_so_far(), [0, 1, 2, 3]);
        // Nothing to add: the bytes come back as they were.
        assert_eq!(apply(text, &notes(4)), text);
    }

    #[test]
    fn properties_replace_their_namesakes_and_comments_are_appended() {
        let text = "(;GM[1]C[hello];B[aa]SBKV[10] ;W[bb])";
        let mut n = notes(3);
        n[0].comment = Some("a]b".into());
        n[1].props = vec![("SBKV".into(), "55.5".into())];
        n[2].props = vec![("SBKV".into(), "40".into())];
        n[2].comment = Some("new".into());
        assert_eq!(
            apply(text, &n),
            "(;GM[1]C[hello\n\na\\]b];B[aa]SBKV[55.5] ;W[bb]SBKV[40]C[new])"
        );
    }

    #[test]
    fn variations_become_siblings_of_the_move_they_replace() {
        // Inside one sequence: the rest of the game is wrapped, the variation follows it.
        let text = "(;SZ[9];B[aa];W[bb];B[cc];W[dd])";
        let mut n = notes(5);
        n[2].variation = Some(";W[ee]".into());
        n[4].variation = Some(";W[ff]".into());
        assert_eq!(
            apply(text, &n),
            "(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ff]))(;W[ee]))"
        );
        // A node that already starts a tree gets a sibling tree after it.
        let text = "(;SZ[9];B[aa](;W[bb];B[cc])(;W[dd]))";
        let mut n = notes(4);
        n[2].variation = Some(";W[ee]".into());
        n[3].variation = Some(";B[ff]".into());
        assert_eq!(
            apply(text, &n),
            "(;SZ[9];B[aa](;W[bb](;B[cc])(;B[ff]))(;W[ee])(;W[dd]))"
        );
    }
}
