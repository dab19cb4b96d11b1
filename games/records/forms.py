from django import forms
from django.utils.translation import gettext_lazy as _


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    widget = MultipleFileInput

    def clean(self, data, initial=None):
        if isinstance(data, list | tuple):
            return [super(MultipleFileField, self).clean(item, initial) for item in data]
        return [super().clean(data, initial)] if data else []


class UploadForm(forms.Form):
    files = MultipleFileField(
        label=_("Record files"),
        required=False,
        help_text=_(".mat or .sgf files, or a zip of up to 200 records; at most 2 MiB per record."),
    )
    text = forms.CharField(
        label=_("…or paste a record"), required=False, widget=forms.Textarea(attrs={"rows": 8, "cols": 60})
    )
