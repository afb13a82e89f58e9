"""The labelled photo sets: manifests load with their boxes in order, the train/validation split is
fixed by each file's bytes, and each source's boxes are known for what they enclose."""

from __future__ import annotations

import pytest

from vision.photos import BOX_KINDS, Photo, load_manifest, split_of

HEAD = "file,source,n_dice,values,boxes,values_in_box_order,notes,table_like,excluded,width,height\n"


def _manifest(tmp_path, rows):
    path = tmp_path / "manifest.csv"
    path.write_text(HEAD + "".join(rows))
    return path


def test_the_manifest_loads_boxes_in_their_order_and_flags_excluded_rows(tmp_path):
    path = _manifest(tmp_path, [
        'a.png,nell-byler,2,2 5,"10,10,40,40;100,10,40,40",5 2,,1,0,200,100\n',
        'b.png,matteop65,1,3,"5,5,20,20",3,EXCLUDED: label error,1,1,200,100\n',
    ])
    a, b = load_manifest(path)
    assert a.values == (2, 5) and a.box_values == (5, 2) and a.boxes[1] == (100, 10, 40, 40)
    assert a.table_like and not a.excluded and b.excluded
    assert a.path == tmp_path / "a.png"


@pytest.mark.parametrize("row, message", [
    ('c.png,x,2,1 2,"1,1,2,2",1 2,,1,0,10,10\n', "disagree"),
    ('a.png,nell-byler,2\n', "line 2: too few fields"),
    ('a.png,x,1,1,"1,1,a,2",1,,1,0,10,10\n', "line 2: boxes and values must be integers"),
    ('a.png,x,2,3 9,"1,1,2,2;5,5,2,2",3 9,,1,0,10,10\n', "a.png: a die's value is 1-6, not 9"),
    ('a.png,x,1,0,"1,1,2,2",0,,1,0,10,10\n', "a.png: a die's value is 1-6, not 0"),
    ('a.png,x,3,1 2,"1,1,2,2;5,5,2,2",1 2,,1,0,10,10\n', "a.png: n_dice is 3, but 2 dice are labelled"),
    ('a.png,x,two,1 2,"1,1,2,2;5,5,2,2",1 2,,1,0,10,10\n', "a.png: n_dice is a number of dice, not 'two'"),
])
def test_a_malformed_row_is_refused_by_its_line(tmp_path, row, message):
    with pytest.raises(ValueError, match=message):
        load_manifest(_manifest(tmp_path, [row]))


def test_a_manifest_without_a_column_names_it(tmp_path):
    short = tmp_path / "short.csv"
    short.write_text("file,source\na.png,x\n")
    with pytest.raises(ValueError, match="missing columns boxes, values_in_box_order, table_like, excluded"):
        load_manifest(short)


def test_the_split_is_one_in_five_by_the_files_bytes_so_a_renamed_copy_stays_where_it_was(tmp_path):
    parts = []
    for i in range(300):
        f = tmp_path / f"{i}.jpg"
        f.write_bytes(f"photo {i}".encode())
        parts.append(split_of(f))
    assert set(parts) == {"train", "val"} and 35 < parts.count("val") < 85
    first_val = tmp_path / f"{parts.index('val')}.jpg"
    copy = tmp_path / "renamed.jpg"
    copy.write_bytes(first_val.read_bytes())
    assert split_of(copy) == "val"


def test_each_sources_boxes_are_known_for_what_they_enclose():
    def kind(source):
        return Photo("a.jpg", source, (), (), (), True, False).box_kind

    assert kind("nell-byler") == "top_face" and kind("matteop65") == "pips"
    assert kind("aws-reinvent2019") == kind("a-new-source") == "whole_die"
    assert set(BOX_KINDS.values()) <= {"top_face", "pips", "whole_die"}
