"""Writes the corpus workbook as openpyxl writes it, once, for the tests (so CI needs no Python).

Run with Debian's python3 and python3-openpyxl:
    /usr/bin/python3 scripts/workbook-corpus/make-openpyxl.py
It writes test-kit/workbooks/openpyxl-staff.xlsx and, beside it, the cells as openpyxl stored them
(openpyxl-staff.json: each sheet's rows of text as a person sees them). openpyxl keeps no formula
results and writes no rich text, so its formula cells read as empty.
"""
import datetime
import json
import os

import openpyxl

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "test-kit", "workbooks")

wb = openpyxl.Workbook()
guide = wb.active
guide.title = "안내"
guide.append(["이 파일은 연말 선물 직원 명단입니다."])
guide.append(["Staff list for the year-end gifts"])

staff = wb.create_sheet("직원")
staff.append(["2025 연말 선물 명단"])
staff.merge_cells("A1:H1")
staff.append(["사번", "이름", "부서", "관심사", "예산", "입사일", "재직", "비고"])
staff.merge_cells("H2:I2")
staff.append([1001, "김민준", "개발팀", "등산, 커피", 50000, datetime.date(2021, 3, 4), True, "정규직"])
staff.append(["1002", "이서연", "영업팀", "독서 | 음악", "=E3-20000", datetime.datetime(2022, 11, 15, 9, 30), False, '="정"&"규직"'])
staff.append([1003, "Emma Stone", "Marketing", "yoga, movies", 0.1 + 0.2, datetime.date(1999, 12, 31), True, "#N/A"])
staff["E3"].number_format = "#,##0"
staff["F3"].number_format = "yyyy-mm-dd"
staff["F5"].number_format = "yyyy-mm-dd"

hidden = wb.create_sheet("숨김")
hidden.sheet_state = "hidden"
hidden.append(["이름", "관심사"])
hidden.append(["박지훈", "골프"])

wb.save(os.path.join(OUT, "openpyxl-staff.xlsx"))

title = ["2025 연말 선물 명단"] * 8
expected = {
    "안내": [["이 파일은 연말 선물 직원 명단입니다."], ["Staff list for the year-end gifts"]],
    "직원": [
        title,
        ["사번", "이름", "부서", "관심사", "예산", "입사일", "재직", "비고", "비고"],
        ["1001", "김민준", "개발팀", "등산, 커피", "50000", "2021-03-04", "TRUE", "정규직"],
        ["1002", "이서연", "영업팀", "독서 | 음악", "", "2022-11-15T09:30:00", "FALSE"],
        ["1003", "Emma Stone", "Marketing", "yoga, movies", "0.3", "1999-12-31", "TRUE", "#N/A"],
    ],
    "숨김": [["이름", "관심사"], ["박지훈", "골프"]],
}
with open(os.path.join(OUT, "openpyxl-staff.json"), "w", encoding="utf-8") as f:
    json.dump({"writer": "openpyxl " + openpyxl.__version__, "hidden": ["숨김"], "sheets": expected}, f, ensure_ascii=False, indent=1)
