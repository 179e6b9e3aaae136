"""Writes the corpus workbook as LibreOffice writes .xlsx, once, for the tests (CI needs neither).

Run on Debian with libreoffice-calc-nogui:
    /usr/bin/python3 scripts/workbook-corpus/make-libreoffice.py
A flat OpenDocument spreadsheet (rich text in runs, formulas, dates, a merged title and header, a
hidden sheet) is written to a temporary folder and converted by `soffice --headless --convert-to
xlsx`, which computes the formulas and stores their results. The .xlsx lands in
test-kit/workbooks/libreoffice-staff.xlsx, the cells as LibreOffice stored them beside it.
"""
import json
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "test-kit", "workbooks")


def s(text, span=None):
    extra = f' table:number-columns-spanned="{span}"' if span else ""
    return f'<table:table-cell office:value-type="string"{extra}><text:p>{text}</text:p></table:table-cell>'


def n(value):
    return f'<table:table-cell office:value-type="float" office:value="{value}"/>'


def d(value, style):
    return f'<table:table-cell table:style-name="{style}" office:value-type="date" office:date-value="{value}"/>'


def b(value):
    return f'<table:table-cell office:value-type="boolean" office:boolean-value="{str(value).lower()}"/>'


def f(formula, kind="float", value="0"):
    if kind == "string":
        return f'<table:table-cell table:formula="of:={formula}" office:value-type="string" office:string-value="{value}"/>'
    return f'<table:table-cell table:formula="of:={formula}" office:value-type="float" office:value="{value}"/>'


def row(*cells):
    return "<table:table-row>" + "".join(cells) + "</table:table-row>"


def table(name, rows, style="ta1"):
    return f'<table:table table:name="{name}" table:style-name="{style}">' + "".join(rows) + "</table:table>"


COVERED = "<table:covered-table-cell/>"
header = [s(h) for h in ["사번", "이름", "부서", "관심사", "예산", "입사일", "재직"]]
staff = table("직원", [
    row(s("2025 연말 선물 명단", span=8), *[COVERED] * 7),
    row(*header, s("비고", span=2), COVERED),
    row(n(1001), s("김민준"), s("개발팀"), s("등산, 커피"), n(50000), d("2021-03-04", "date"), b(True), s("정규직")),
    row(s("1002"),
        '<table:table-cell office:value-type="string"><text:p>이<text:span text:style-name="T1">서</text:span>연</text:p></table:table-cell>',
        s("영업팀"), s("독서 | 음악"), f("[.E3]-20000", value="30000"), d("2022-11-15T09:30:00", "datetime"), b(False),
        f('&quot;정&quot;&amp;&quot;규직&quot;', "string", "정규직")),
    row(n(1003), s("Emma Stone"), s("Marketing"), s("yoga, movies"), f("0.1+0.2", value="0.3"), d("1999-12-31", "date"), b(True),
        f("NA()", "float", "0")),
])
DOC = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:automatic-styles>
 <number:date-style style:name="N1"><number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/><number:text>-</number:text><number:day number:style="long"/></number:date-style>
 <number:date-style style:name="N2"><number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/><number:text>-</number:text><number:day number:style="long"/><number:text> </number:text><number:hours number:style="long"/><number:text>:</number:text><number:minutes number:style="long"/></number:date-style>
 <style:style style:name="date" style:family="table-cell" style:data-style-name="N1"/>
 <style:style style:name="datetime" style:family="table-cell" style:data-style-name="N2"/>
 <style:style style:name="ta1" style:family="table"><style:table-properties table:display="true"/></style:style>
 <style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style>
 <style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
</office:automatic-styles>
<office:body><office:spreadsheet>
{table("안내", [row(s("이 파일은 연말 선물 직원 명단입니다.")), row(s("Staff list for the year-end gifts"))])}
{staff}
{table("숨김", [row(s("이름"), s("관심사")), row(s("박지훈"), s("골프"))], "ta2")}
</office:spreadsheet></office:body></office:document>
"""

with tempfile.TemporaryDirectory() as tmp:
    source = os.path.join(tmp, "libreoffice-staff.fods")
    with open(source, "w", encoding="utf-8") as out:
        out.write(DOC)
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{tmp}/profile", "--convert-to", "xlsx",
                    "--outdir", tmp, source], check=True, capture_output=True)
    shutil.copy(os.path.join(tmp, "libreoffice-staff.xlsx"), os.path.join(OUT, "libreoffice-staff.xlsx"))

# LibreOffice stores the booleans of an .xlsx as the numbers 1 and 0 (with no boolean format)
title = ["2025 연말 선물 명단"] * 8
expected = {
    "안내": [["이 파일은 연말 선물 직원 명단입니다."], ["Staff list for the year-end gifts"]],
    "직원": [
        title,
        ["사번", "이름", "부서", "관심사", "예산", "입사일", "재직", "비고", "비고"],
        ["1001", "김민준", "개발팀", "등산, 커피", "50000", "2021-03-04", "1", "정규직"],
        ["1002", "이서연", "영업팀", "독서 | 음악", "30000", "2022-11-15T09:30:00", "0", "정규직"],
        ["1003", "Emma Stone", "Marketing", "yoga, movies", "0.3", "1999-12-31", "1", "#N/A"],
    ],
    "숨김": [["이름", "관심사"], ["박지훈", "골프"]],
}
with open(os.path.join(OUT, "libreoffice-staff.json"), "w", encoding="utf-8") as out:
    version = subprocess.run(["soffice", "--version"], capture_output=True, text=True).stdout.strip()
    json.dump({"writer": version, "hidden": ["숨김"], "sheets": expected}, out, ensure_ascii=False, indent=1)
