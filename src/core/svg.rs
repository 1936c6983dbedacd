//! The shared parts of the board pictures (`gamut show --svg`): the
//! drawing options, an SVG 1.1 document writer with text escaping, and the
//! layout of a board of square cells. Each game draws its own board with
//! these in `games/<game>/svg.rs`.
//!
//! Every stone is one element with the class `stone` and its colour
//! (`stone white`, `stone black`) and a `data-square` attribute naming the
//! square or node it stands on, so tools and tests can read a picture back.

use std::fmt::Write;

/// How a board picture is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// The picture's width in pixels; the height follows the board's shape.
    pub size: u32,
    /// Whether file and rank names (or node names) are written.
    pub coordinates: bool,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            size: 480,
            coordinates: true,
        }
    }
}

/// `text` with the five XML special characters escaped.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c => s.push(c),
        }
    }
    s
}

/// The class of a stone of player `index` (0 or 1): `white` or `black`.
#[must_use]
pub const fn colour_class(index: usize) -> &'static str {
    if index == 0 {
        "white"
    } else {
        "black"
    }
}

/// An SVG document being written, in user units of a `width` × `height`
/// view box scaled to [`SvgOptions::size`] pixels wide.
#[derive(Debug)]
pub struct Picture {
    body: String,
}

impl Picture {
    /// A document of the given view-box size, with a background fill.
    #[must_use]
    pub fn new(width: f64, height: f64, background: &str, opts: &SvgOptions) -> Picture {
        let px_w = opts.size;
        let px_h = (f64::from(opts.size) * height / width).round();
        let mut body = String::with_capacity(8192);
        let _ = write!(
            body,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" \
             width=\"{px_w}\" height=\"{px_h}\" viewBox=\"0 0 {width} {height}\" \
             font-family=\"sans-serif\">\n\
             <rect class=\"background\" x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"{background}\"/>\n"
        );
        Picture { body }
    }

    /// Appends one element or fragment, written by the caller.
    pub fn push(&mut self, fragment: &str) {
        self.body.push_str(fragment);
        self.body.push('\n');
    }

    /// A rectangle with extra attributes (`fill="…" class="…"`).
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, attrs: &str) {
        self.push(&format!(
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" {attrs}/>"
        ));
    }

    /// A circle with extra attributes.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, attrs: &str) {
        self.push(&format!(
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" {attrs}/>"
        ));
    }

    /// A line with extra attributes.
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), attrs: &str) {
        self.push(&format!(
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" {attrs}/>"
        ));
    }

    /// Text centred on `(x, y)`, escaped, with extra attributes.
    pub fn text(&mut self, x: f64, y: f64, size: f64, content: &str, attrs: &str) {
        self.push(&format!(
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size:.1}\" text-anchor=\"middle\" \
             dominant-baseline=\"central\" {attrs}>{}</text>",
            escape(content)
        ));
    }

    /// A stone of player `index` on `square` (see the module documentation),
    /// with extra classes and attributes.
    pub fn stone(&mut self, (cx, cy): (f64, f64), r: f64, index: usize, square: &str, extra: &str) {
        let (fill, stroke) = if index == 0 {
            ("#f4f1e8", "#222")
        } else {
            ("#1c1c1c", "#000")
        };
        self.push(&format!(
            "<circle class=\"stone {}\" data-square=\"{}\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" \
             fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\" {extra}/>",
            colour_class(index),
            escape(square)
        ));
    }

    /// An arrow from `from` to `to` marking a move.
    pub fn arrow(&mut self, from: (f64, f64), to: (f64, f64), width: f64) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let head = width * 3.0;
        let base = (to.0 - ux * head, to.1 - uy * head);
        let (px, py) = (-uy * head * 0.6, ux * head * 0.6);
        self.line(
            from,
            base,
            &format!(
                "class=\"last-move\" stroke=\"#d0312d\" stroke-opacity=\"0.8\" stroke-width=\"{width:.1}\" stroke-linecap=\"round\""
            ),
        );
        self.push(&format!(
            "<polygon class=\"last-move\" points=\"{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"#d0312d\" fill-opacity=\"0.8\"/>",
            to.0,
            to.1,
            base.0 + px,
            base.1 + py,
            base.0 - px,
            base.1 - py
        ));
    }

    /// The finished document.
    #[must_use]
    pub fn finish(mut self) -> String {
        self.body.push_str("</svg>\n");
        self.body
    }
}

/// A board of `files` × `ranks` square cells of side `cell`, inside a
/// margin for the coordinates; file `a` is on the left, rank 1 at the
/// bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Number of files (columns).
    pub files: u8,
    /// Number of ranks (rows).
    pub ranks: u8,
    /// A cell's side in user units.
    pub cell: f64,
    /// The space around the board.
    pub margin: f64,
}

impl Grid {
    /// The picture's width.
    #[must_use]
    pub fn width(&self) -> f64 {
        f64::from(self.files) * self.cell + 2.0 * self.margin
    }

    /// The picture's height for the board alone.
    #[must_use]
    pub fn height(&self) -> f64 {
        f64::from(self.ranks) * self.cell + 2.0 * self.margin
    }

    /// The top-left corner of a cell.
    #[must_use]
    pub fn corner(&self, file: u8, rank: u8) -> (f64, f64) {
        (
            self.margin + f64::from(file) * self.cell,
            self.margin + f64::from(self.ranks - 1 - rank) * self.cell,
        )
    }

    /// The centre of a cell.
    #[must_use]
    pub fn centre(&self, file: u8, rank: u8) -> (f64, f64) {
        let (x, y) = self.corner(file, rank);
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }

    /// A cell's name: its file letter and rank number (`c3`).
    #[must_use]
    pub fn name(file: u8, rank: u8) -> String {
        format!("{}{}", (b'a' + file) as char, rank + 1)
    }

    /// Draws every cell as a `square` rectangle named by `data-square`,
    /// filled with `fill(file, rank)`.
    pub fn draw_cells(&self, pic: &mut Picture, fill: impl Fn(u8, u8) -> &'static str) {
        for rank in 0..self.ranks {
            for file in 0..self.files {
                let (x, y) = self.corner(file, rank);
                pic.rect(
                    x,
                    y,
                    self.cell,
                    self.cell,
                    &format!(
                        "class=\"square\" data-square=\"{}\" fill=\"{}\"",
                        Grid::name(file, rank),
                        fill(file, rank)
                    ),
                );
            }
        }
    }

    /// Marks a cell as touched by the last move.
    pub fn highlight(&self, pic: &mut Picture, file: u8, rank: u8) {
        let (x, y) = self.corner(file, rank);
        pic.rect(
            x,
            y,
            self.cell,
            self.cell,
            &format!(
                "class=\"last-move\" data-square=\"{}\" fill=\"#f2d22e\" fill-opacity=\"0.55\"",
                Grid::name(file, rank)
            ),
        );
    }

    /// Draws the pieces of a board whose cell `(file, rank)` holds a piece
    /// of player `owner(file, rank)`: the cells whose owner differs in the
    /// position before the last move (`before`) are highlighted, then every
    /// piece is drawn as a stone named by its cell, then the coordinates
    /// when asked.
    pub fn draw_pieces(
        &self,
        pic: &mut Picture,
        opts: &SvgOptions,
        owner: impl Fn(u8, u8) -> Option<usize>,
        before: Option<&dyn Fn(u8, u8) -> Option<usize>>,
    ) {
        let cells = || (0..self.ranks).flat_map(|r| (0..self.files).map(move |f| (f, r)));
        if let Some(before) = before {
            for (f, r) in cells().filter(|&(f, r)| before(f, r) != owner(f, r)) {
                self.highlight(pic, f, r);
            }
        }
        for (f, r) in cells() {
            if let Some(i) = owner(f, r) {
                let name = Grid::name(f, r);
                pic.stone(self.centre(f, r), self.cell * 0.38, i, &name, "");
            }
        }
        if opts.coordinates {
            self.draw_coordinates(pic);
        }
    }

    /// Writes the file letters below and the rank numbers left of the board.
    pub fn draw_coordinates(&self, pic: &mut Picture) {
        let size = (self.margin * 0.5).min(self.cell * 0.4);
        for file in 0..self.files {
            let (x, _) = self.centre(file, 0);
            let y = self.margin + f64::from(self.ranks) * self.cell + self.margin / 2.0;
            let name = ((b'a' + file) as char).to_string();
            pic.text(x, y, size, &name, "class=\"coordinate\" fill=\"#333\"");
        }
        for rank in 0..self.ranks {
            let (_, y) = self.centre(0, rank);
            pic.text(
                self.margin / 2.0,
                y,
                size,
                &(rank + 1).to_string(),
                "class=\"coordinate\" fill=\"#333\"",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_replaces_the_special_characters() {
        assert_eq!(
            escape("a<b & 'c' > \"d\""),
            "a&lt;b &amp; &apos;c&apos; &gt; &quot;d&quot;"
        );
    }

    #[test]
    fn grid_puts_a1_bottom_left() {
        let g = Grid {
            files: 8,
            ranks: 8,
            cell: 10.0,
            margin: 5.0,
        };
        assert_eq!(g.centre(0, 0), (10.0, 80.0));
        assert_eq!(g.centre(7, 7), (80.0, 10.0));
        assert_eq!(Grid::name(2, 2), "c3");
    }
}
